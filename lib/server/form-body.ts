import { IncomingMessage } from "node:http";
import { isApiPath } from "@/lib/http/api-path";

// Next.js takes any multipart POST to a page for a server-action form post, and answers a body it
// cannot parse as form data with a 500. Such a POST is buffered here (up to Next.js's own 1 MB
// limit for action bodies), checked, and replayed to Next.js; a broken one is a 400.

const MAX_BYTES = 1024 * 1024;

export function isPageFormPost(request: IncomingMessage): boolean {
  return request.method === "POST" && !isApiPath(request.url ?? "/") && /^multipart\/form-data/i.test(request.headers["content-type"] ?? "");
}

/** The request to hand to Next.js (the same headers and body), or the status to refuse it with. */
export async function checkedFormPost(request: IncomingMessage): Promise<IncomingMessage | 400 | 413> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BYTES) return 413;
    chunks.push(chunk);
  }
  const body = Buffer.concat(chunks);
  try {
    await new Request("http://form.invalid/", { method: "POST", headers: { "content-type": request.headers["content-type"]! }, body }).formData();
  } catch {
    return 400;
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
