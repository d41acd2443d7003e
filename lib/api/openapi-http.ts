import { CORS_ALLOWED_HEADERS, CORS_ALLOWED_METHODS, CORS_EXPOSED_HEADERS, CORS_MAX_AGE_SECONDS } from "@/lib/http/cors";
import { MIN_COMPRESSED_BYTES } from "@/lib/http/compression";
import { CACHE_CONTROL } from "./headers";
import type { HeaderObject, ParameterObject, ResponseObject } from "./openapi-types";
import { ALLOWED_METHODS } from "./problem";

// The HTTP side of the contract, the same on every path: caching and conditional requests,
// compression, the trailing-slash redirect, methods other than GET, CORS. ./openapi.ts adds these
// to each operation; the resources, parameters and errors are written there.

export type CacheControl = (typeof CACHE_CONTROL)[keyof typeof CACHE_CONTROL];

const CACHE_CONTROL_MEANING: Record<CacheControl, string> = {
  [CACHE_CONTROL.personalData]: "Signups are personal data: no cache may store them. Clients that keep a copy themselves can still send `If-None-Match` with a page's `ETag`.",
  [CACHE_CONTROL.revalidatePrivate]: "Only the client's own cache may store it, and must revalidate it (`If-None-Match`) before each use.",
  [CACHE_CONTROL.revalidatePublic]: "Public: any cache may store it, revalidated (`If-None-Match`) before each use.",
  [CACHE_CONTROL.never]: "Never stored.",
};

export function cacheControlHeader(value: CacheControl): HeaderObject {
  return { description: `Always \`${value}\`. ${CACHE_CONTROL_MEANING[value]}`, required: true, schema: { type: "string", const: value } };
}

const etag = (required: boolean): HeaderObject => ({
  description: "A weak entity tag of this response (its body and its `Link`), whatever its content coding. Send it back in `If-None-Match` to get a `304` while nothing changed.",
  required,
  schema: { type: "string", pattern: '^W/"[A-Za-z0-9_-]+"$' },
});

export const etagHeader = { ETag: etag(true) };
/** On signup lists: only pages (`limit`) have one; a complete list is streamed before its end is known. */
export const pageEtagHeader = { ETag: { ...etag(false), description: `Only on a page (a request with \`limit\`). ${etag(false).description}` } };

export const ifNoneMatchParameter: ParameterObject = {
  name: "If-None-Match",
  in: "header",
  required: false,
  description: "The `ETag` of the copy you hold (or several, comma-separated, or `*`). When it still matches, the answer is `304` without a body.",
  schema: { type: "string" },
};

/** `304`: the copy the client holds is current; the headers of a `200` that say so, no body. */
export function notModifiedResponse(headers: Record<string, HeaderObject>): ResponseObject {
  return { description: "Not modified: `If-None-Match` names the current `ETag`. No body; the copy you hold is current.", headers };
}

/** `308`: Next.js's redirect of a path with a trailing slash, with the headers lib/server gives it. */
export function redirectResponse(requestId: HeaderObject): ResponseObject {
  return {
    description: "Not an answer to this path itself: the same path with a trailing slash (e.g. `/v1/waitlist/`) is redirected here, with the query kept. Follow `Location`.",
    headers: {
      "Request-Id": requestId,
      "Cache-Control": cacheControlHeader(CACHE_CONTROL.never),
      Location: { description: "This path, without the trailing slash, and the request's query.", required: true, schema: { type: "string", format: "uri-reference" } },
    },
    content: { "text/plain": { schema: { type: "string", description: "The path of `Location`." } } },
  };
}

const allowHeader = (allow: string): HeaderObject => ({ description: `Always \`${allow}\`.`, required: true, schema: { type: "string", const: allow } });

/** `405` for the other methods on this path (the problem body comes from ./openapi.ts). */
export function methodNotAllowedResponse(problem: (extra: Record<string, HeaderObject>) => ResponseObject, allow = ALLOWED_METHODS): ResponseObject {
  const response = problem({ Allow: allowHeader(allow) });
  const others = allow === ALLOWED_METHODS ? "`POST`, `PUT`, `PATCH` and `DELETE`" : allow.includes("GET") ? "`PUT`, `PATCH` and `DELETE`" : "`GET`, `HEAD`, `PUT`, `PATCH` and `DELETE`";
  return { ...response, description: `${response.description} Not an answer to this operation: ${others} on this path get it, before any key is checked.` };
}

const corsHeader = (description: string, value?: string): HeaderObject => ({ description, schema: value ? { type: "string", const: value } : { type: "string" } });

/** `204` to OPTIONS on this path: Allow, and the answer to a browser's CORS preflight. */
export function optionsResponse(requestId: HeaderObject, anyOrigin: boolean, allow = ALLOWED_METHODS): ResponseObject {
  const who = anyOrigin ? "any origin (this document is public)" : "an origin of `CORS_ORIGINS` (none unless the operator sets it)";
  return {
    description: `Not an answer to \`GET\`: \`OPTIONS\` on this path gets it, without a key (browsers send none with a preflight), and no body. A CORS preflight (\`Origin\` and \`Access-Control-Request-Method\`) from ${who} also gets the \`Access-Control-Allow-*\` headers; from any other origin it gets none, and the browser refuses the request.`,
    headers: {
      "Request-Id": requestId,
      "Cache-Control": cacheControlHeader(CACHE_CONTROL.never),
      Allow: allowHeader(allow),
      "Access-Control-Allow-Origin": corsHeader("The request's `Origin` when it is allowed, or `*` when every origin is."),
      "Access-Control-Allow-Methods": corsHeader("Only on a preflight from an allowed origin.", CORS_ALLOWED_METHODS),
      "Access-Control-Allow-Headers": corsHeader("Only on a preflight from an allowed origin: the headers a browser app may send.", CORS_ALLOWED_HEADERS),
      "Access-Control-Max-Age": corsHeader("Only on a preflight from an allowed origin: seconds a browser may reuse this answer.", String(CORS_MAX_AGE_SECONDS)),
    },
  };
}

/** What the document's description says about compression, caching and CORS. */
export const HTTP_DESCRIPTION = `Compression: responses are sent with \`br\` or \`gzip\` when \`Accept-Encoding\` allows it (q-values honoured; of equal preference \`br\`), with \`Vary: Accept-Encoding\`. Bodies under ${MIN_COMPRESSED_BYTES.toLocaleString("en")} bytes and \`HEAD\` answers are sent as they are, unless \`identity;q=0\` refuses that; when nothing listed is possible the body is sent as it is. A complete signup list is compressed batch by batch, so its first bytes still come at once.

Caching: \`Cache-Control\` says what may be stored. Signups are personal data: \`private, no-store\`. Waitlists: \`private, no-cache\` with an \`ETag\`. This document: \`public, no-cache\` with an \`ETag\`. Errors, \`OPTIONS\` and redirects: \`no-store\`. Send \`If-None-Match\` with an \`ETag\` to get a \`304\` without a body while nothing changed (signup pages carry an \`ETag\` too; a complete signup list does not). A \`304\` is still an authenticated, rate-limited request.

CORS (browser apps on another origin): off unless the operator sets \`CORS_ORIGINS\` (a list of origins, or \`*\`). Allowed origins get \`Access-Control-Allow-Origin\`, may send \`${CORS_ALLOWED_HEADERS}\`, and may read \`${CORS_EXPOSED_HEADERS}\`; preflights are answered by \`OPTIONS\` and may be reused for ${CORS_MAX_AGE_SECONDS} s. Credentials (cookies) are never allowed: send the key in a header. This document (\`/v1/openapi.json\`) is readable from any origin.`;
