import { IncomingMessage } from "node:http";
import { isApiPath } from "@/lib/http/api-path";
import { bodyLimitOf, DASHBOARD_FORM_MAX_BYTES } from "@/lib/http/body-limit";

// Bodies outside /v1 are read here, before Next.js, when they must be bounded or checked, then
// replayed to Next.js:
// - every write (POST, PUT, PATCH, DELETE) is bounded (lib/http/body-limit.ts: the join pages' forms
//   to 32 KB, the dashboard's to 1 MB; the import upload has its own bound): a larger one is a 413,
//   refused on its Content-Length before reading anything, or as soon as a streamed body passes it;
// - Next.js takes any multipart POST to a page for a server-action form post, and answers a body it
//   cannot parse as form data with a 500: such a body is parsed here first, and a broken one is a 400.

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function isPageFormPost(request: IncomingMessage): boolean {
  return request.method === "POST" && !isApiPath(request.url ?? "/") && /^multipart\/form-data/i.test(request.headers["content-type"] ?? "");
}

/** What the server must check of this request's body before Next.js reads it, or undefined when nothing. */
export function bodyCheckOf(request: IncomingMessage): { limit: number; multipart: boolean } | undefined {
  const multipart = isPageFormPost(request);
  const limit = WRITE_METHODS.has(request.method ?? "") ? bodyLimitOf(request.url ?? "/") : undefined;
  if (limit === undefined && !multipart) return undefined;
  return { limit: limit ?? DASHBOARD_FORM_MAX_BYTES, multipart };
}

/**
 * Leaves the rest of a refused body unread: the request counts as being read (else Node would read
 * it all to discard it once the answer is sent), and stays paused, so the client's sending stalls.
 */
function leaveUnread(request: IncomingMessage): void {
  request.on("data", () => {});
  request.pause();
}

/** The body, up to `limit` bytes: 413 past it (what is left unread stays unread), "aborted" when the client went away. */
function readUpTo(request: IncomingMessage, limit: number): Promise<Buffer<ArrayBuffer> | 413 | "aborted"> {
  if (Number(request.headers["content-length"] ?? 0) > limit) {
    leaveUnread(request);
    return Promise.resolve(413);
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (result: Buffer<ArrayBuffer> | 413 | "aborted") => {
      request.off("data", onData);
      request.off("end", onEnd);
      request.off("error", onError);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      settle(413);
      leaveUnread(request);
    };
    const onEnd = () => settle(Buffer.concat(chunks));
    const onError = () => settle("aborted");
    request.on("data", onData);
    request.once("end", onEnd);
    request.once("error", onError);
  });
}

/**
 * How long the connection of a refused body stays open once the 413 is sent: closing it at once, with
 * the client still sending, makes the kernel reset it, and a client may then lose the answer unread.
 */
export const REFUSED_BODY_LINGER_MS = 1000;

/** The request to hand to Next.js (the same headers and body), or the status to refuse it with. */
export async function checkedBody(request: IncomingMessage, check: { limit: number; multipart: boolean }): Promise<IncomingMessage | 400 | 413 | "aborted"> {
  const body = await readUpTo(request, check.limit);
  if (!Buffer.isBuffer(body)) return body;
  if (check.multipart) {
    try {
      await new Request("http://form.invalid/", { method: "POST", headers: { "content-type": request.headers["content-type"]! }, body }).formData();
    } catch {
      return 400;
    }
  }
  const replay = new IncomingMessage(request.socket);
  Object.assign(replay, {
    method: request.method,
    url: request.url,
    headers: request.headers,
    rawHeaders: request.rawHeaders,
    httpVersion: request.httpVersion,
    httpVersionMajor: request.httpVersionMajor,
    httpVersionMinor: request.httpVersionMinor,
    // Else, once read to the end, it would count as aborted and destroy the socket.
    complete: true,
  });
  replay.push(body);
  replay.push(null);
  return replay;
}
