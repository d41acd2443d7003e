import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createServer, request as httpRequest, type IncomingMessage, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Transform } from "node:stream";
import { brotliDecompressSync, constants, createBrotliDecompress, createGunzip, gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { compressWhenWritten, MIN_COMPRESSED_BYTES } from "@/lib/http/compression";
import { writeApiResponse } from "@/lib/server/api-routes";

// Real node:http servers and clients: what the production server writes for /v1 (writeApiResponse) and
// the wrapper around Next.js's responses (compressWhenWritten) put on the wire.

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

type Listener = (...args: Parameters<RequestListener>) => void | Promise<unknown>;

/** A server on a free port answering with `listener`; one that fails ends its response. */
async function listen(listener: Listener): Promise<string> {
  const server = createServer((request, response) => {
    Promise.resolve(listener(request, response)).catch((error: unknown) => response.destroy(error as Error));
  });
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function get(url: string, acceptEncoding?: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers: acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding } }, resolve)
      .on("error", reject)
      .end();
  });
}

async function readAll(response: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function decode(coding: string | undefined, bytes: Buffer): string {
  if (coding === "br") return brotliDecompressSync(bytes).toString();
  if (coding === "gzip") return gunzipSync(bytes).toString();
  return bytes.toString();
}

/** A decoder that hands on whatever it can decode as soon as it can (a client reading a stream). */
function streamingDecoder(coding: "br" | "gzip"): Transform {
  return coding === "br" ? createBrotliDecompress({ flush: constants.BROTLI_OPERATION_FLUSH }) : createGunzip({ flush: constants.Z_SYNC_FLUSH });
}

/** Resolves with the decoded text once it reaches `length` characters. */
function decodedUpTo(decoder: Transform, length: number): Promise<string> {
  let text = "";
  return new Promise((resolve) => {
    decoder.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      if (text.length >= length) resolve(text);
    });
  });
}

const batch = (index: number) => JSON.stringify(Array.from({ length: 200 }, (_, item) => ({ email: `user${index}-${item}@example.com`, verified: item % 2 === 0 })));

describe.each(["br", "gzip"] as const)("what the production server writes for /v1 with Accept-Encoding: %s", (coding) => {
  it("sends each batch of a stream compressed and flushed: the client decodes it before the next is read", async () => {
    let releaseSecond!: () => void;
    const secondMayCome = new Promise<void>((resolve) => (releaseSecond = resolve));
    const [first, second] = [batch(1), batch(2)];
    const url = await listen((request, response) => {
      let sent = 0;
      // highWaterMark 0: pulled once per read, like the signup stream (lib/api/json-stream.ts).
      const body = new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            if (sent++ === 0) return controller.enqueue(new TextEncoder().encode(first));
            await secondMayCome;
            controller.enqueue(new TextEncoder().encode(second));
            controller.close();
          },
        },
        { highWaterMark: 0 },
      );
      const handler = async () => new Response(body, { headers: { "Content-Type": "application/json; charset=utf-8" } });
      void handler().then((result) => writeApiResponse(result, request, response));
    });
    const response = await get(url, coding);
    expect(response.headers["content-encoding"]).toBe(coding);
    expect(response.headers["vary"]).toBe("Accept-Encoding");
    expect(response.headers["content-length"]).toBeUndefined();
    const decoder = streamingDecoder(coding);
    const all = decodedUpTo(decoder, first.length + second.length);
    const firstDecoded = decodedUpTo(decoder, first.length);
    response.pipe(decoder);
    // Without a flush per batch, this waits forever: the encoder would hold the first batch back.
    expect(await firstDecoded).toBe(first);
    releaseSecond();
    expect(await all).toBe(first + second);
  });

  it("encodes a body built in memory at once, with its Content-Length, and leaves a small one alone", async () => {
    const large = batch(3);
    const small = JSON.stringify({ id: "x".repeat(MIN_COMPRESSED_BYTES - 20) }).slice(0, MIN_COMPRESSED_BYTES - 1);
    const url = await listen((request, response) => {
      const text = request.url === "/large" ? large : small;
      const handler = async () => new Response(text, { headers: { "Content-Type": "application/json; charset=utf-8", "Content-Length": String(Buffer.byteLength(text)) } });
      void handler().then((result) => writeApiResponse(result, request, response));
    });
    const big = await get(`${url}/large`, coding);
    const bytes = await readAll(big);
    expect(big.headers["content-encoding"]).toBe(coding);
    expect(Number(big.headers["content-length"])).toBe(bytes.length);
    expect(bytes.length).toBeLessThan(large.length / 4);
    expect(decode(coding, bytes)).toBe(large);

    const little = await get(`${url}/small`, coding);
    expect(little.headers["content-encoding"]).toBeUndefined();
    expect(little.headers["vary"]).toBe("Accept-Encoding");
    expect((await readAll(little)).toString()).toBe(small);

    // identity refused: even a small body is encoded.
    const refused = await get(`${url}/small`, `${coding}, identity;q=0`);
    expect(refused.headers["content-encoding"]).toBe(coding);
    expect(decode(coding, await readAll(refused))).toBe(small);
  });
});

describe("compressWhenWritten: responses written by someone else (Next.js)", () => {
  /** Writes like Next.js's route-handler pipe: headers flushed first, then one write per chunk. */
  const writeLikeNext = (chunks: string[], contentType = "text/csv; charset=utf-8"): Listener =>
    async (request, response) => {
      compressWhenWritten(request, response);
      response.appendHeader("content-type", contentType);
      response.flushHeaders();
      for (const chunk of chunks) {
        if (!response.write(chunk)) await once(response, "drain");
      }
      response.end();
    };

  it.each(["br", "gzip"] as const)("encodes a CSV stream with %s and flushes each write", async (coding) => {
    let releaseSecond!: () => void;
    const secondMayCome = new Promise<void>((resolve) => (releaseSecond = resolve));
    const rows = (from: number) => Array.from({ length: 300 }, (_, index) => `user${from + index}@example.com,true,false,[],2026-01-01T00:00:00.000Z\r\n`).join("");
    const [first, second] = [`email,verified\r\n${rows(0)}`, rows(300)];
    const url = await listen(async (request, response) => {
      compressWhenWritten(request, response);
      response.appendHeader("content-type", "text/csv; charset=utf-8");
      response.flushHeaders();
      response.write(first);
      await secondMayCome;
      response.end(second);
    });
    const response = await get(url, `gzip, deflate, ${coding === "br" ? "br" : "br;q=0.5"}`);
    expect(response.headers["content-encoding"]).toBe(coding);
    expect(response.headers["vary"]).toBe("Accept-Encoding");
    const decoder = streamingDecoder(coding);
    const all = decodedUpTo(decoder, first.length + second.length);
    const firstDecoded = decodedUpTo(decoder, first.length);
    response.pipe(decoder);
    expect(await firstDecoded).toBe(first);
    releaseSecond();
    expect(await all).toBe(first + second);
  });

  it("keeps back-pressure: a client that does not read stops the writer, and gets every byte once it reads", async () => {
    // Random text barely compresses, so what the writer manages to write is what sits in buffers.
    const chunk = randomBytes(48 * 1024).toString("base64");
    const total = 200;
    let writtenBeforeBackPressure = -1;
    const url = await listen(async (request, response) => {
      compressWhenWritten(request, response);
      response.setHeader("content-type", "text/csv; charset=utf-8");
      for (let index = 0; index < total; index++) {
        if (!response.write(chunk)) {
          if (writtenBeforeBackPressure === -1) writtenBeforeBackPressure = index + 1;
          await once(response, "drain");
        }
      }
      response.end();
    });
    const response = await get(url, "gzip");
    response.pause();
    await new Promise((resolve) => setTimeout(resolve, 500));
    // 200 chunks are 13 MB of text: the writer must have been told to wait long before that.
    expect(writtenBeforeBackPressure).toBeGreaterThan(0);
    expect(writtenBeforeBackPressure * chunk.length).toBeLessThan(8 * 1024 * 1024);
    const body = gunzipSync(await readAll(response)).toString();
    expect(body.length).toBe(chunk.length * total);
    expect(body).toBe(chunk.repeat(total));
  });

  it("leaves alone a small body, another type, a HEAD, a response already encoded and a client without Accept-Encoding", async () => {
    const url = await listen(async (request, response) => {
      const path = request.url!;
      if (path === "/encoded") {
        // Next.js compressed it itself (a page): its listener ran first and set Content-Encoding.
        response.setHeader("Content-Encoding", "gzip");
      }
      if (path === "/small") {
        compressWhenWritten(request, response);
        response.setHeader("content-type", "application/json");
        return response.end(JSON.stringify({ ok: true }));
      }
      compressWhenWritten(request, response);
      response.setHeader("content-type", path === "/html" ? "text/html; charset=utf-8" : "text/csv");
      response.end("x".repeat(5000));
    });
    const small = await get(`${url}/small`, "gzip, br");
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.headers["content-length"]).toBe("11");
    expect((await readAll(small)).toString()).toBe('{"ok":true}');
    const html = await get(`${url}/html`, "gzip, br");
    expect(html.headers["content-encoding"]).toBeUndefined();
    expect(html.headers["vary"]).toBeUndefined();
    expect((await readAll(html)).length).toBe(5000);
    const encoded = await get(`${url}/encoded`, "br");
    expect(encoded.headers["content-encoding"]).toBe("gzip");
    expect((await readAll(encoded)).toString()).toBe("x".repeat(5000));
    const plain = await get(`${url}/csv`);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers["vary"]).toBe("Accept-Encoding");
    expect((await readAll(plain)).length).toBe(5000);
    const head = await new Promise<IncomingMessage>((resolve) => httpRequest(`${url}/csv`, { method: "HEAD", headers: { "accept-encoding": "gzip" } }, resolve).end());
    expect(head.headers["content-encoding"]).toBeUndefined();
    await readAll(head);
  });

  it("stops encoding when the client goes away mid-stream, and the server carries on", async () => {
    const chunk = "y".repeat(64 * 1024);
    let closed!: () => void;
    const serverSawClose = new Promise<void>((resolve) => (closed = resolve));
    const url = await listen(writeLikeNext(Array.from({ length: 2000 }, () => chunk)));
    servers[0]!.on("request", (_request, response) => response.once("close", () => closed()));
    const response = await get(url, "br");
    response.once("data", () => response.destroy());
    await serverSawClose;
    // The same server still answers.
    const again = await get(url, "gzip");
    again.destroy();
    expect(again.headers["content-encoding"]).toBe("gzip");
  });
});
