import { connect } from "node:net";
import { expect, test } from "@playwright/test";
import { openWaitlist, signupsOf } from "../support/join-fixtures";

// Every write outside /v1 is bounded before Next.js reads it (lib/server/form-body.ts,
// lib/http/body-limit.ts): a 150 MB join form is a 413 at once, whether it says its length or
// streams without one, nothing is stored, and the server goes on serving.

const port = Number(new URL(process.env.E2E_BASE_URL!).port);
const MB = 1024 * 1024;

/**
 * Sends `head`, then up to `total` bytes of `a=aaaa…` in 64 KB writes (each after the previous one
 * drained), chunked when `chunked`; stops sending once an answer arrives. Resolves with the answer's
 * status and body as soon as it is whole, the bytes sent by then, and how long the answer took.
 */
function streamPost(head: string, total: number, chunked: boolean): Promise<{ status: number; text: string; sent: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let answer = "";
    let sent = 0;
    let answered = false;
    const socket = connect(port, "127.0.0.1");
    const chunk = Buffer.alloc(64 * 1024, "a");
    const frame = (data: Buffer) => (chunked ? Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from("\r\n")]) : data);
    const pump = () => {
      while (!answered && sent < total) {
        const part = sent === 0 ? Buffer.concat([Buffer.from("a="), chunk.subarray(2)]) : chunk;
        sent += part.length;
        if (!socket.write(frame(part))) return void socket.once("drain", pump);
      }
      if (!answered && chunked) socket.write("0\r\n\r\n");
    };
    /** The answer, once its head and its Content-Length of body are in. */
    const whole = () => {
      const match = /^HTTP\/1\.1 (\d{3})[^]*?\r\ncontent-length: (\d+)\r\n[^]*?\r\n\r\n([^]*)$/i.exec(answer);
      return match && Buffer.byteLength(match[3]!, "latin1") >= Number(match[2]) ? { status: Number(match[1]), text: match[3]! } : undefined;
    };
    socket.on("connect", () => {
      socket.write(head);
      pump();
    });
    socket.on("data", (data: Buffer) => {
      answered = true;
      answer += data.toString("latin1");
      const done = whole();
      if (!done) return;
      resolve({ ...done, sent, ms: performance.now() - started });
      socket.destroy();
    });
    // Writes still under way when the server closes the connection may fail (EPIPE/ECONNRESET).
    socket.on("error", () => socket.destroy());
    socket.on("close", () => reject(new Error(`no whole answer after sending ${sent} bytes: ${JSON.stringify(answer.slice(0, 200))}`)));
    socket.setTimeout(60_000, () => socket.destroy());
  });
}

const headers = (path: string, extra: string) => `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nSec-Fetch-Site: same-origin\r\nContent-Type: application/x-www-form-urlencoded\r\n${extra}\r\n`;

test("a 150 MB join form is a 413 within a second, with or without Content-Length; nothing is stored and the server still serves", async ({ request }) => {
  const waitlist = await openWaitlist();
  const path = `/join/${waitlist.id}/submit`;
  const size = 150 * MB;

  const declared = await streamPost(headers(path, `Content-Length: ${size}\r\n`), size, false);
  expect(declared.status).toBe(413);
  expect(declared.text).toContain("Payload Too Large: this form may send at most 32 KB; nothing was changed.");
  expect(declared.ms).toBeLessThan(1000);
  expect(declared.sent).toBeLessThan(size);

  const streamed = await streamPost(headers(path, "Transfer-Encoding: chunked\r\n"), size, true);
  expect(streamed.status).toBe(413);
  expect(streamed.ms).toBeLessThan(1000);
  expect(streamed.sent).toBeLessThan(size);
  test.info().annotations.push({ type: "measured", description: `declared 150 MB: 413 in ${Math.round(declared.ms)} ms after ${declared.sent} bytes; streamed: 413 in ${Math.round(streamed.ms)} ms after ${streamed.sent} bytes` });

  expect(await signupsOf(waitlist.id)).toEqual([]);
  // Still serving, and a form within the bound still joins.
  expect((await request.get(`/join/${waitlist.id}`)).status()).toBe(200);
  const joined = await request.post(path, { form: { email: "within@example.com" }, headers: { "Sec-Fetch-Site": "same-origin" }, maxRedirects: 0 });
  expect(joined.status()).toBe(303);
  expect((await signupsOf(waitlist.id)).map((signup) => signup.email)).toEqual(["within@example.com"]);
});

test("the confirmation and resend forms are bounded like the join form; the dashboard's forms to 1 MB", async () => {
  const waitlist = await openWaitlist();
  for (const path of [`/join/${waitlist.id}/confirm/submit`, `/join/${waitlist.id}/resend`]) {
    const answer = await streamPost(headers(path, `Content-Length: ${MB}\r\n`), MB, false);
    expect([path, answer.status]).toEqual([path, 413]);
  }
  const dashboard = await streamPost(headers(`/waitlists/${waitlist.id}/update`, `Content-Length: ${2 * MB}\r\n`), 2 * MB, false);
  expect(dashboard.status).toBe(413);
  expect(dashboard.text).toContain("at most 1 MB");
});
