// /v1 GET and HEAD requests of the route table (lib/api/route-table.ts), answered by the same
// handlers Next.js would call, without Next.js's routing and rendering machinery, which cost several
// times the handler's own work per request (see tests/bench/README.md). Anything else under /v1,
// including a trailing slash, other methods and unknown paths, still goes through Next.js; the
// differences are written down at the table.
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { BufferedResponse } from "@/lib/api/buffered-response";
import { API_ROUTES, apiGetHandler, type ApiGetHandler } from "@/lib/api/route-table";
import { codingFor, encodeSync, flushingEncoder, isCompressibleType } from "@/lib/http/compression";
import { nodeHeaderReader, type IncomingRequest } from "@/lib/http/incoming";
import { varyWith } from "@/lib/http/on-headers";
import { NO_CONTENT_SECURITY_HEADER_LIST } from "@/lib/http/security-headers";

/** `/waitlist/{id}` → /^\/v1\/waitlist\/([^/]+)$/ and the names of its parameters. */
function compile(template: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = template
    .split("/")
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(param[1]!);
      return "([^/]+)";
    })
    .join("/");
  return { pattern: new RegExp(`^/v1${source}$`), names };
}

const ROUTES = API_ROUTES.map(({ template, method }) => ({ ...compile(template), method, handler: apiGetHandler(template) }));

export interface ApiRouteMatch {
  handler: ApiGetHandler;
  params: Record<string, string>;
}

/** The /v1 route a GET or HEAD request is for, or null when Next.js should handle it. */
export function matchApiRoute(request: Pick<IncomingMessage, "method" | "url">): ApiRouteMatch | null {
  const method = request.method === "HEAD" ? "GET" : request.method;
  const path = (request.url ?? "").split("?", 1)[0]!;
  for (const { pattern, names, method: routeMethod, handler } of ROUTES) {
    if (method !== routeMethod) continue;
    const match = pattern.exec(path);
    if (!match) continue;
    try {
      // Next.js hands dynamic segments to handlers percent-decoded: do the same.
      return { handler, params: Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1]!)])) };
    } catch {
      return null;
    }
  }
  return null;
}

/** The Node request as the handlers read it (lib/http/incoming.ts): no Headers, URL or AbortSignal built. */
function incomingRequest(request: IncomingMessage): IncomingRequest {
  return {
    method: request.method ?? "GET",
    // The handlers read the public origin from the Host / X-Forwarded-* headers, not from this URL.
    url: `http://localhost${request.url ?? "/"}`,
    headers: nodeHeaderReader(request.headers),
  };
}

/**
 * Runs the matched handler and writes its Response, compressed as Accept-Encoding allows
 * (lib/http/compression.ts): a body built in memory (it has a Content-Length) at once, a stream
 * batch by batch with back-pressure, each batch flushed. All headers, the security headers
 * included, go to writeHead in one list, which node:http writes without storing them one by one.
 */
export async function serveApiRoute({ handler, params }: ApiRouteMatch, request: IncomingMessage, response: ServerResponse) {
  const result = await handler(incomingRequest(request), { params: Promise.resolve(params) });
  const headers = [...NO_CONTENT_SECURITY_HEADER_LIST];
  let contentType: string | null = null;
  let contentEncoding: string | null = null;
  let length: string | null = null;
  let vary: string | null = null;
  for (const [name, value] of result instanceof BufferedResponse ? result.editableHeaders : result.headers) {
    if (name === "content-length") length = value;
    else if (name === "vary") vary = value;
    else {
      if (name === "content-type") contentType = value;
      else if (name === "content-encoding") contentEncoding = value;
      headers.push(name, value);
    }
  }
  // A 304 stands for the 200 it confirms, which varies with Accept-Encoding.
  if (isCompressibleType(contentType) || result.status === 304) vary = varyWith(vary, "Accept-Encoding");
  if (vary !== null) headers.push("Vary", vary);
  // (A BufferedResponse always has a body; asking would build its stream.)
  if (!(result instanceof BufferedResponse) && !result.body) {
    if (length !== null) headers.push("Content-Length", length);
    return void response.writeHead(result.status, headers).end();
  }
  const coding = codingFor(request.headers["accept-encoding"], {
    method: request.method,
    status: result.status,
    contentType,
    contentEncoding,
    length: length === null ? undefined : Number(length),
  });
  if (length !== null) {
    // As text, Node sends the body in one write together with the headers (/v1 bodies are JSON).
    const text = result instanceof BufferedResponse ? result.bufferedText : await result.text();
    if (!coding) {
      headers.push("Content-Length", length);
      return void response.writeHead(result.status, headers).end(text);
    }
    const encoded = encodeSync(coding, Buffer.from(text));
    headers.push("Content-Encoding", coding, "Content-Length", String(encoded.byteLength));
    return void response.writeHead(result.status, headers).end(encoded);
  }
  if (coding) headers.push("Content-Encoding", coding);
  // A stream's headers stay unsent until its first batch, so a stream that fails before it is still a 500.
  response.statusCode = result.status;
  for (let index = 0; index < headers.length; index += 2) response.setHeader(headers[index]!, headers[index + 1]!);
  try {
    const source = Readable.fromWeb(result.body as NodeReadableStream);
    await (coding ? pipeline(source, flushingEncoder(coding), response) : pipeline(source, response));
  } catch (error) {
    // A client that goes away mid-stream is not a server error; pipeline has cancelled the body.
    if ((error as NodeJS.ErrnoException).code !== "ERR_STREAM_PREMATURE_CLOSE") throw error;
  }
}
