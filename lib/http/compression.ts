// gzip and brotli for the JSON and CSV this server writes (/v1, the CSV export). Bodies are encoded
// chunk by chunk and every chunk is flushed: a streamed list sends each batch as soon as it is read,
// compressed, instead of waiting for the encoder's window to fill.
import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline, Transform, Writable } from "node:stream";
import { brotliCompressSync, constants, createBrotliCompress, createGzip, gzipSync, type BrotliOptions, type ZlibOptions } from "node:zlib";
import { negotiateContentCoding, type ContentCoding } from "./content-coding";
import { addVary, onHeaders } from "./on-headers";

/** Below this a body is sent as it is (when identity is acceptable): headers and framing would eat the gain. */
export const MIN_COMPRESSED_BYTES = 1024;

const COMPRESSIBLE_TYPE = /^\s*(application\/(json|problem\+json)|text\/csv)\s*(;|$)/i;

// Brotli's default quality (11) is for static files: 20× slower. On the 9.1 MB demo list, flushed
// per 1,000-row batch: quality 4 gives 0.76 MB at about gzip's default speed (gzip level 6: 0.68 MB),
// quality 5 gives 0.64 MB for 30-50 % more CPU. Lists are sent once: speed wins.
const BROTLI: BrotliOptions = { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } };
const GZIP: ZlibOptions = {};

export function isCompressibleType(contentType: string | number | string[] | undefined | null): boolean {
  const type = Array.isArray(contentType) ? contentType[0] : contentType;
  return typeof type === "string" && COMPRESSIBLE_TYPE.test(type);
}

export interface OutgoingBody {
  method: string | undefined;
  status: number;
  contentType: string | number | string[] | undefined | null;
  /** Set when something else already encoded the body. */
  contentEncoding: string | number | string[] | undefined | null;
  /** The body's size when known in advance. */
  length: number | undefined;
}

/** The coding for a response body, or null to send it as it is. */
export function codingFor(acceptEncoding: string | undefined | null, body: OutgoingBody): ContentCoding | null {
  if (body.method === "HEAD" || body.status < 200 || body.status === 204 || body.status === 304) return null;
  if (body.contentEncoding !== undefined && body.contentEncoding !== null) return null;
  if (!isCompressibleType(body.contentType)) return null;
  const { coding, identityAcceptable } = negotiateContentCoding(acceptEncoding);
  if (coding && identityAcceptable && body.length !== undefined && body.length < MIN_COMPRESSED_BYTES) return null;
  return coding;
}

/** A whole body, encoded at once (for bodies built in memory: a page, one object). */
export function encodeSync(coding: ContentCoding, body: Buffer): Buffer {
  return coding === "br" ? brotliCompressSync(body, BROTLI) : gzipSync(body, GZIP);
}

/** A stream that encodes each chunk written to it and flushes it: one chunk in, its compressed bytes out. */
export function flushingEncoder(coding: ContentCoding): Transform {
  const zlib = coding === "br" ? createBrotliCompress(BROTLI) : createGzip(GZIP);
  const flushKind = coding === "br" ? constants.BROTLI_OPERATION_FLUSH : constants.Z_SYNC_FLUSH;
  let output: Buffer[] = [];
  const take = () => {
    const bytes = Buffer.concat(output);
    output = [];
    return bytes;
  };
  zlib.on("data", (bytes: Buffer) => output.push(bytes));
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      zlib.write(chunk);
      // zlib emits all the output of a flush before calling back.
      zlib.flush(flushKind, () => done(null, take()));
    },
    flush(done) {
      zlib.once("end", () => done(null, take()));
      zlib.once("error", done);
      zlib.end();
    },
    destroy(error, done) {
      zlib.destroy();
      done(error);
    },
  });
}

type Chunk = string | Buffer | Uint8Array;
type Callback = (error?: Error | null) => void;

function toBuffer(chunk: Chunk, encoding?: BufferEncoding): Buffer {
  return typeof chunk === "string" ? Buffer.from(chunk, encoding) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/**
 * Compresses a response that someone else writes (Next.js, for route handlers it serves: it drops a
 * handler's Content-Encoding header, and its own compression skips their bodies). Decided when the
 * headers are fixed, from Accept-Encoding, the status, Content-Type and the size when known; a
 * response already encoded (Next.js compresses pages itself) is left alone. Writes keep their
 * back-pressure: a write returns false while the encoder is full, and "drain" follows.
 */
export function compressWhenWritten(request: IncomingMessage, response: ServerResponse): void {
  // The response's own write and end (before Next.js or anyone else wraps them).
  const write = response.write as (this: ServerResponse, ...args: unknown[]) => boolean;
  const end = response.end as (this: ServerResponse, ...args: unknown[]) => ServerResponse;
  let encoder: Transform | null = null;

  onHeaders(response, () => {
    const contentType = response.getHeader("Content-Type");
    if (isCompressibleType(contentType)) addVary(response, "Accept-Encoding");
    const contentLength = response.getHeader("Content-Length");
    const coding = codingFor(request.headers["accept-encoding"], {
      method: request.method,
      status: response.statusCode,
      contentType,
      contentEncoding: response.getHeader("Content-Encoding"),
      length: contentLength === undefined ? undefined : Number(contentLength),
    });
    if (!coding) return;
    response.setHeader("Content-Encoding", coding);
    response.removeHeader("Content-Length");
    const active = flushingEncoder(coding);
    const socketSide = new Writable({
      write(bytes: Buffer, _encoding, done) {
        if (write.call(response, bytes)) return done();
        response.once("drain", () => done());
      },
      final(done) {
        end.call(response);
        done();
      },
    });
    active.on("drain", () => response.emit("drain"));
    pipeline(active, socketSide, (error) => {
      if (error && !response.destroyed) response.destroy(error);
    });
    // A client that goes away stops the encoder (whose zlib would otherwise live on).
    response.once("close", () => active.destroy());
    encoder = active;
  });

  response.write = function (this: ServerResponse, chunk: Chunk, encodingOrCallback?: BufferEncoding | Callback, callback?: Callback) {
    if (!this.headersSent) this.writeHead(this.statusCode);
    if (!encoder) return write.call(this, chunk, encodingOrCallback, callback);
    const encoding = typeof encodingOrCallback === "string" ? encodingOrCallback : undefined;
    const done = typeof encodingOrCallback === "function" ? encodingOrCallback : callback;
    return encoder.write(toBuffer(chunk, encoding), done);
  } as ServerResponse["write"];

  response.end = function (this: ServerResponse, chunkOrCallback?: Chunk | Callback, encodingOrCallback?: BufferEncoding | Callback, callback?: Callback) {
    const chunk = typeof chunkOrCallback === "function" ? undefined : chunkOrCallback;
    const encoding = typeof encodingOrCallback === "string" ? encodingOrCallback : undefined;
    if (!this.headersSent) {
      // What Node would do for a body given whole to end(): say its length.
      const length = chunk === undefined ? 0 : toBuffer(chunk, encoding).byteLength;
      if (!this.hasHeader("Content-Length") && !this.hasHeader("Transfer-Encoding")) this.setHeader("Content-Length", length);
      this.writeHead(this.statusCode);
    }
    if (!encoder) return end.call(this, chunkOrCallback, encodingOrCallback, callback);
    const done = [chunkOrCallback, encodingOrCallback, callback].find((each): each is Callback => typeof each === "function");
    if (done) this.once("finish", () => done());
    if (chunk !== undefined) encoder.end(toBuffer(chunk, encoding));
    else encoder.end();
    return this;
  } as ServerResponse["end"];
}
