// /v1 GET and HEAD requests, answered by the route handlers' own functions (lib/api/routes.ts)
// without Next.js's routing and rendering machinery, which cost several times the handler's own
// work per request (see tests/bench/README.md). Anything else under /v1, including a trailing
// slash, other methods and unknown paths, still goes through Next.js.
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { getWaitlistRoute, listSignupsRoute, listWaitlistsRoute } from "@/lib/api/routes";

type RouteHandler = (request: Request, segment: { params: Promise<{ id: string }> }) => Promise<Response>;

const ROUTES: [pattern: RegExp, handler: RouteHandler][] = [
  [/^\/v1\/waitlist$/, listWaitlistsRoute as RouteHandler],
  [/^\/v1\/waitlist\/([^/]+)$/, getWaitlistRoute],
  [/^\/v1\/waitlist\/([^/]+)\/signup$/, listSignupsRoute],
];

export interface ApiRouteMatch {
  handler: RouteHandler;
  id: string;
}

/** The /v1 route a GET or HEAD request is for, or null when Next.js should handle it. */
export function matchApiRoute(request: IncomingMessage): ApiRouteMatch | null {
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  const path = (request.url ?? "").split("?", 1)[0]!;
  for (const [pattern, handler] of ROUTES) {
    const match = pattern.exec(path);
    if (!match) continue;
    try {
      // Next.js hands dynamic segments to handlers percent-decoded: do the same.
      return { handler, id: match[1] === undefined ? "" : decodeURIComponent(match[1]) };
    } catch {
      return null;
    }
  }
  return null;
}

function toWebHeaders(request: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

/** Runs the matched handler and writes its Response, streaming the body with back-pressure. */
export async function serveApiRoute({ handler, id }: ApiRouteMatch, request: IncomingMessage, response: ServerResponse) {
  // The handlers read the public origin from the Host / X-Forwarded-* headers, not from this URL.
  const url = new URL(request.url ?? "/", "http://localhost");
  const result = await handler(new Request(url, { method: request.method, headers: toWebHeaders(request) }), { params: Promise.resolve({ id }) });
  response.statusCode = result.status;
  for (const [name, value] of result.headers) response.setHeader(name, value);
  if (!result.body) {
    response.end();
    return;
  }
  try {
    await pipeline(Readable.fromWeb(result.body as NodeReadableStream), response);
  } catch (error) {
    // A client that goes away mid-stream is not a server error; pipeline has cancelled the body.
    if ((error as NodeJS.ErrnoException).code !== "ERR_STREAM_PREMATURE_CLOSE") throw error;
  }
}
