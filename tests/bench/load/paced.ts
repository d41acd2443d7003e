import { Agent, request } from "node:http";
import { percentile } from "../measure";

// A steady open load: request i is due at start + i / rate, sent then whatever the earlier answers'
// pace, and its latency counted from when it was due (so a server that falls behind is charged for
// the wait, not forgiven it). autocannon's `overallRate` is another load: each connection sends its
// share of the second back to back and then pauses until the next second, so "200 a second over 16
// connections" arrives as 16 requests at once, again and again, at the start of every second.

export interface PacedRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface PacedResult {
  sent: number;
  /** Answers with a 2xx status. */
  ok: number;
  /** Answers with another status, and requests that failed, by status (or error code). */
  failed: Record<string, number>;
  /** Answers a second over the run's length. */
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
}

function send(agent: Agent, origin: URL, each: PacedRequest): Promise<number | string> {
  return new Promise((resolve) => {
    const outgoing = request({ agent, host: origin.hostname, port: origin.port, method: each.method, path: each.path, headers: { ...each.headers, ...(each.body !== undefined && { "content-length": Buffer.byteLength(each.body) }) } }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
      response.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
    });
    outgoing.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
    outgoing.end(each.body);
  });
}

/** Sends `next(i)` at `rate` a second for `seconds` to `origin`, each on a kept-alive connection of a pool. */
export async function pacedLoad(options: { origin: string; rate: number; seconds: number; next: (index: number) => PacedRequest }): Promise<PacedResult> {
  const { rate, seconds, next } = options;
  const origin = new URL(options.origin);
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const total = Math.round(rate * seconds);
  const latencies: number[] = [];
  const failed: Record<string, number> = {};
  const answers: Promise<void>[] = [];
  const start = performance.now();
  for (let index = 0; index < total; index++) {
    const due = start + (index * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    answers.push(
      send(agent, origin, next(index)).then((status) => {
        if (typeof status === "number" && status >= 200 && status < 300) latencies.push(performance.now() - due);
        else failed[String(status)] = (failed[String(status)] ?? 0) + 1;
      }),
    );
  }
  await Promise.all(answers);
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  return {
    sent: total,
    ok: latencies.length,
    failed,
    perSecond: latencies.length / elapsed,
    p50: latencies.length ? percentile(latencies, 0.5) : NaN,
    p99: latencies.length ? percentile(latencies, 0.99) : NaN,
    max: latencies.length ? Math.max(...latencies) : NaN,
  };
}
