import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

// A real webhook receiver on 127.0.0.1 for the delivery tests: it verifies every request's signature
// with the `standardwebhooks` package (as a customer's receiver would), records what arrived, counts
// requests in flight per webhook-id, and answers as the test's `behave` says for each attempt.

export interface Received {
  id: string;
  /** 1 for the first request with this webhook-id, 2 for the second, … */
  attempt: number;
  body: { type: string; timestamp: string; data: Record<string, unknown> };
  /** The body's bytes as they arrived. */
  raw: string;
  signatureValid: boolean;
}

/** What to answer: a status (after `delayMs`), or "hang" (never answer), or "cut" (200 headers, then the connection closes). */
export type Answer = { status: number; delayMs?: number; headers?: Record<string, string> } | "hang" | "cut";

export interface Receiver {
  url: string;
  received: Received[];
  /** The distinct webhook-ids received with a valid signature. */
  ids(): Set<string>;
  /** The most requests with one webhook-id that were in flight at once. */
  maxConcurrentPerId: number;
  close(): Promise<void>;
}

export async function startReceiver(secret: () => string, behave: (request: Received) => Answer = () => ({ status: 200 })): Promise<Receiver> {
  const received: Received[] = [];
  const attempts = new Map<string, number>();
  const inFlight = new Map<string, number>();
  const state = { maxConcurrentPerId: 0 };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const id = String(request.headers["webhook-id"]);
      let signatureValid = true;
      try {
        new Webhook(secret()).verify(text, request.headers as Record<string, string>);
      } catch {
        signatureValid = false;
      }
      const attempt = (attempts.get(id) ?? 0) + 1;
      attempts.set(id, attempt);
      const entry: Received = { id, attempt, body: JSON.parse(text) as Received["body"], raw: text, signatureValid };
      received.push(entry);
      const running = (inFlight.get(id) ?? 0) + 1;
      inFlight.set(id, running);
      state.maxConcurrentPerId = Math.max(state.maxConcurrentPerId, running);
      const done = () => inFlight.set(id, inFlight.get(id)! - 1);
      response.once("close", done);
      const answer = behave(entry);
      if (answer === "hang") return;
      if (answer === "cut") {
        response.writeHead(200, { "Content-Length": "100" });
        response.write("partial");
        setTimeout(() => request.socket.destroy(), 20);
        return;
      }
      setTimeout(() => {
        response.writeHead(answer.status, answer.headers);
        response.end(answer.status >= 400 ? "receiver says no" : "ok");
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    ids: () => new Set(received.filter((entry) => entry.signatureValid).map((entry) => entry.id)),
    get maxConcurrentPerId() {
      return state.maxConcurrentPerId;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Waits until `check` holds, polling; fails with `what` after `timeoutMs`. */
export async function eventually(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
