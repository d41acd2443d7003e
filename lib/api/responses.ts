import type { RecordedOutcome } from "@/lib/domain/idempotency";
import type { Position } from "@/lib/store/keyset";
import { ifNoneMatchMatches, weakEtag } from "@/lib/http/conditional";
import type { IncomingRequest } from "@/lib/http/incoming";
import { BufferedResponse } from "./buffered-response";
import { encodeCursor } from "./cursor";

const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/**
 * For bodies that are already JSON text (SQLite builds signup objects itself). Content-Length
 * marks a body built in memory: the production server encodes it at once (or not at all below
 * 1 KB) instead of as a stream.
 */
export function jsonTextResponse(text: string, headers: Record<string, string> = {}, status = 200): Response {
  return new BufferedResponse(text, { status, headers: { "Content-Type": JSON_CONTENT_TYPE, "Content-Length": String(Buffer.byteLength(text)), ...headers } });
}

/** A write's recorded answer (./write-answers.ts) with `headers`, marked `Idempotent-Replayed` when it was replayed. */
export function recordedResponse({ replayed, answer }: RecordedOutcome, headers: Record<string, string>): Response {
  return jsonTextResponse(answer.body, replayed ? { ...headers, "Idempotent-Replayed": "true" } : headers, answer.code);
}

/**
 * A JSON body with an ETag of its content and of `headers` (a page's Link changes when signups
 * arrive after it): 304 without a body when If-None-Match already names it.
 */
export function conditionalJsonResponse(request: IncomingRequest, text: string, headers: Record<string, string>, cacheControl: string): Response {
  const etag = weakEtag(text, ...Object.entries(headers).flat());
  const validators = { ETag: etag, "Cache-Control": cacheControl };
  if (ifNoneMatchMatches(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers: validators });
  return jsonTextResponse(text, { ...headers, ...validators });
}

/** A streamed JSON body: no Content-Length, encoded batch by batch. */
export function jsonStreamResponse(body: ReadableStream<Uint8Array>, cacheControl: string): Response {
  return new Response(body, { status: 200, headers: { "Content-Type": JSON_CONTENT_TYPE, "Cache-Control": cacheControl } });
}

/**
 * The `Link` header for the next page: the request's own URL (same origin, path and other
 * parameters) with the cursor replaced. Empty when this is the last page.
 */
export function nextPageHeaders(url: URL, scope: string, next: Position | null, parameter = "cursor"): Record<string, string> {
  return next ? nextPageLink(url, encodeCursor(scope, next), parameter) : {};
}

/** The Link header to the next page: this request's URL with `parameter` set to the cursor. */
export function nextPageLink(url: URL, cursor: string, parameter = "cursor"): Record<string, string> {
  const nextUrl = new URL(url);
  nextUrl.searchParams.set(parameter, cursor);
  return { Link: `<${nextUrl.href}>; rel="next"` };
}
