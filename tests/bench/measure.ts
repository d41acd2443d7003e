import { createHash } from "node:crypto";
import { get } from "node:http";
import autocannon from "autocannon";

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
}

/**
 * One GET read to the end at full speed (node:http, so nothing buffers the body). The hash lets
 * the benchmark check that app and baseline send the same bytes.
 */
export function download(url: string, headers: Record<string, string>): Promise<Download> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = get(url, { headers }, (response) => {
      const hash = createHash("sha256");
      let bytes = 0;
      let firstByteMs = 0;
      response.on("data", (chunk: Buffer) => {
        if (bytes === 0) firstByteMs = performance.now() - started;
        bytes += chunk.length;
        hash.update(chunk);
      });
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, bytes, sha256: hash.digest("hex"), firstByteMs, lastByteMs: performance.now() - started }),
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
