import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { get } from "node:http";
import autocannon from "autocannon";

/**
 * CPU seconds a process has used (all its threads), from /proc/<pid>/stat (user + system, at 100 ticks
 * a second); with `mainThread`, those of its main thread alone (/proc/<pid>/task/<pid>/stat).
 */
export function cpuSeconds(pid: number, { mainThread = false } = {}): number {
  const fields = readFileSync(mainThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export interface LoadResult {
  requestsPerSecond: number;
  p99Ms: number;
}

/** Fixed duration, fixed concurrency; any error or non-2xx answer fails the benchmark. */
export async function load(url: string, headers: Record<string, string>, { connections, seconds }: { connections: number; seconds: number }): Promise<LoadResult> {
  const result = await autocannon({ url, headers, connections, duration: seconds, timeout: 30 });
  if (result.errors > 0 || result.timeouts > 0 || result.non2xx > 0) {
    throw new Error(`${url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx answers under load`);
  }
  return { requestsPerSecond: result.requests.average, p99Ms: result.latency.p99 };
}

export interface Download {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: number;
  sha256: string;
  /** From sending the request to the first body byte / the last byte. */
  firstByteMs: number;
  lastByteMs: number;
  /** The body, when asked for. */
  text?: string;
}

/**
 * One GET read to the end at full speed (node:http, so nothing buffers the body), on a connection
 * of its own: a kept-alive one that sat idle while this process was busy may have been closed by
 * the server meanwhile. The hash lets the benchmark check that app and baseline send the same
 * bytes; `keepText` also returns the body as text.
 */
export function download(url: string, headers: Record<string, string>, { keepText = false } = {}): Promise<Download> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = get(url, { headers, agent: false }, (response) => {
      const hash = createHash("sha256");
      const chunks: Buffer[] = [];
      let bytes = 0;
      let firstByteMs = 0;
      response.on("data", (chunk: Buffer) => {
        if (bytes === 0) firstByteMs = performance.now() - started;
        bytes += chunk.length;
        hash.update(chunk);
        if (keepText) chunks.push(chunk);
      });
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          bytes,
          sha256: hash.digest("hex"),
          firstByteMs,
          lastByteMs: performance.now() - started,
          ...(keepText && { text: Buffer.concat(chunks).toString("utf8") }),
        }),
      );
      response.on("error", reject);
    });
    request.on("error", reject);
  });
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function mean(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** The value below which `share` of the values lie (nearest rank). */
export function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(share * sorted.length) - 1)]!;
}
