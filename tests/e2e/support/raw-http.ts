import { connect } from "node:net";

// A tiny HTTP/1.1 client over a raw socket, for requests fetch and node:http refuse to send:
// raw bytes in the target, duplicated headers, malformed header values. One request per
// connection (Connection: close: the server closes it after answering).

export interface RawResponse {
  status: number;
  headers: Map<string, string[]>;
  body: Buffer;
}

/** Sends `head` (request line and headers, with the final blank line) and `body`; `bodyless` for HEAD. */
export function rawRequest(port: number, request: { head: Buffer | string; body?: Buffer; bodyless?: boolean }, timeoutMs = 15_000): Promise<RawResponse> {
  const head = typeof request.head === "string" ? Buffer.from(request.head, "latin1") : request.head;
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(Buffer.concat([head, request.body ?? Buffer.alloc(0)])));
    const chunks: Buffer[] = [];
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      try {
        resolve(parseResponse(Buffer.concat(chunks), request.bodyless ?? false));
      } catch (error) {
        reject(error);
      }
    });
  });
}

function parseResponse(raw: Buffer, bodyless: boolean): RawResponse {
  const end = raw.indexOf("\r\n\r\n");
  if (end === -1) throw new Error(`incomplete response: ${JSON.stringify(raw.subarray(0, 200).toString("latin1"))}`);
  const [statusLine, ...lines] = raw.subarray(0, end).toString("latin1").split("\r\n");
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine!)?.[1]);
  if (!status) throw new Error(`bad status line: ${statusLine}`);
  const headers = new Map<string, string[]>();
  for (const line of lines) {
    const name = line.slice(0, line.indexOf(":")).toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), line.slice(line.indexOf(":") + 1).trim()]);
  }
  let body = raw.subarray(end + 4);
  if (bodyless || status === 204 || status === 304) return { status, headers, body: Buffer.alloc(0) };
  if (headers.get("transfer-encoding")?.includes("chunked")) body = dechunk(body);
  return { status, headers, body };
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = data.indexOf("\r\n", offset);
    if (lineEnd === -1) throw new Error("truncated chunked body");
    const size = parseInt(data.subarray(offset, lineEnd).toString("latin1"), 16);
    if (size === 0) return Buffer.concat(parts);
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
}
