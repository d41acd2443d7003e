// Every request under /v1, answered by the API's dispatcher (lib/api/dispatch.ts) without Next.js,
// whose routing and rendering machinery cost several times the handler's own work per request
// (see tests/bench/README.md).
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { BufferedResponse } from "@/lib/api/buffered-response";
import { dispatchApi } from "@/lib/api/dispatch";
import { codingFor, encodeSync, flushingEncoder, isCompressibleType } from "@/lib/http/compression";
import { AppError } from "@/lib/core/errors";
import { MAX_API_BODY_BYTES, nodeHeaderReader, type IncomingRequest } from "@/lib/http/incoming";
import { varyWith } from "@/lib/http/on-headers";
import { NO_CONTENT_SECURITY_HEADER_LIST } from "@/lib/http/security-headers";

/** The Node request as the handlers read it (lib/http/incoming.ts): no Headers, URL or AbortSignal built. */
function incomingRequest(request: IncomingMessage): IncomingRequest {
  return {
    method: request.method ?? "GET",
    // The handlers read the public origin from the Host / X-Forwarded-* headers, not from this URL.
    url: `http://localhost${request.url ?? "/"}`,
    headers: nodeHeaderReader(request.headers),
    text: () => bodyText(request),
  };
}

/** The Node request's body as UTF-8, refused past MAX_API_BODY_BYTES. */
async function bodyText(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_API_BODY_BYTES) throw new AppError("invalid_parameter", `The body is larger than ${MAX_API_BODY_BYTES / (1024 * 1024)} MB.`, "body");
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Answers a request under /v1 with the API's dispatcher. */
export async function serveApi(request: IncomingMessage, response: ServerResponse) {
  await writeApiResponse(await dispatchApi(incomingRequest(request)), request, response);
}

/**
 * Writes a /v1 Response, compressed as Accept-Encoding allows
 * (lib/http/compression.ts): a body built in memory (it has a Content-Length) at once, a stream
 * batch by batch with back-pressure, each batch flushed. All headers, the security headers
 * included, go to writeHead in one list, which node:http writes without storing them one by one.
 */
export async function writeApiResponse(result: Response, request: IncomingMessage, response: ServerResponse) {
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
