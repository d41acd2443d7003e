// What compression changes on the wire (issue 13): bytes sent and MB/s of JSON delivered for the
// full signup stream with each content coding, and requests/s of small and paged responses with
// and without Accept-Encoding (compression must cost nothing on bodies it leaves alone). The
// baseline server never compresses: it has figures only for the uncompressed rows.
import { createHash } from "node:crypto";
import { get } from "node:http";
import { createBrotliDecompress, createGunzip } from "node:zlib";
import { load, mean, median } from "./measure";
import { row, type Row } from "./report";
import type { Bench, Server } from "./scenarios";

const CODINGS = ["identity", "gzip", "br"] as const;
type Coding = (typeof CODINGS)[number];

interface WireDownload {
  coding: string;
  wireBytes: number;
  jsonBytes: number;
  sha256: string;
  firstByteMs: number;
  seconds: number;
}

/** One GET read to the end, decoded as it arrives (as a client would), counting bytes on both sides. */
function downloadDecoded(url: string, headers: Record<string, string>): Promise<WireDownload> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    get(url, { headers }, (response) => {
      if (response.statusCode !== 200) return reject(new Error(`${url}: status ${response.statusCode}`));
      const coding = response.headers["content-encoding"] ?? "identity";
      const decoder = coding === "br" ? createBrotliDecompress() : coding === "gzip" ? createGunzip() : null;
      const hash = createHash("sha256");
      let wireBytes = 0;
      let jsonBytes = 0;
      let firstByteMs = 0;
      response.on("data", (chunk: Buffer) => {
        if (wireBytes === 0) firstByteMs = performance.now() - started;
        wireBytes += chunk.length;
      });
      const decoded = decoder ? response.pipe(decoder) : response;
      decoded.on("data", (chunk: Buffer) => {
        jsonBytes += chunk.length;
        hash.update(chunk);
      });
      decoded.on("end", () => resolve({ coding, wireBytes, jsonBytes, sha256: hash.digest("hex"), firstByteMs, seconds: (performance.now() - started) / 1000 }));
      decoded.on("error", reject);
    }).on("error", reject);
  });
}

function acceptEncoding(coding: Coding): Record<string, string> {
  return coding === "identity" ? {} : { "accept-encoding": coding };
}

/** The full stream of the big list, once per coding and round, app and (uncompressed) baseline alternately. */
async function streamRows(bench: Bench): Promise<Row[]> {
  const path = `/v1/waitlist/${bench.bigWaitlistId}/signup`;
  const rows: Row[] = [];
  let expectedSha: string | undefined;
  for (const coding of CODINGS) {
    const runs: Record<Server["name"], WireDownload[]> = { app: [], baseline: [] };
    for (let round = 0; round < bench.rounds; round++) {
      const servers = coding === "identity" ? (round % 2 ? [bench.baseline, bench.app] : [bench.app, bench.baseline]) : [bench.app];
      for (const server of servers) {
        const result = await downloadDecoded(server.origin + path, { ...bench.apiHeaders, ...acceptEncoding(coding) });
        expectedSha ??= result.sha256;
        if (result.sha256 !== expectedSha) throw new Error(`${server.name} ${coding}: the decoded stream differs from the first one`);
        if (server.name === "app" && result.coding !== coding) throw new Error(`app: asked for ${coding}, got ${result.coding}`);
        bench.log(`  ${server.name} ${coding}: ${(result.wireBytes / 1e6).toFixed(2)} MB on the wire for ${(result.jsonBytes / 1e6).toFixed(1)} MB of JSON in ${result.seconds.toFixed(2)} s`);
        runs[server.name].push(result);
      }
    }
    const figure = (name: Server["name"], of: (run: WireDownload) => number) => (runs[name].length ? mean(runs[name].map(of)) : null);
    const scenario = `full stream, Accept-Encoding: ${coding}`;
    rows.push(
      row(scenario, "bytes on the wire", "MB", figure("app", (run) => run.wireBytes / 1e6)!, figure("baseline", (run) => run.wireBytes / 1e6)),
      row(scenario, "JSON delivered", "MB/s", figure("app", (run) => run.jsonBytes / 1e6 / run.seconds)!, figure("baseline", (run) => run.jsonBytes / 1e6 / run.seconds)),
      row(scenario, "time to first byte", "ms", median(runs.app.map((run) => run.firstByteMs)), runs.baseline.length ? median(runs.baseline.map((run) => run.firstByteMs)) : null),
    );
  }
  return rows;
}

/** Requests/s under load with and without Accept-Encoding: a body under 1 KB is never encoded, a page of 100 is. */
async function loadRows(bench: Bench): Promise<Row[]> {
  const rows: Row[] = [];
  const cases: [string, string][] = [
    ["GET /v1/waitlist/{id}", `/v1/waitlist/${bench.bigWaitlistId}`],
    ["signups page 1 (limit=100, verified)", `/v1/waitlist/${bench.bigWaitlistId}/signup?limit=100&verified=true`],
  ];
  for (const [name, path] of cases) {
    for (const coding of ["identity", "br"] as const) {
      const headers = { ...bench.apiHeaders, ...acceptEncoding(coding) };
      const sample = await downloadDecoded(bench.app.origin + path, headers);
      const results: Record<Server["name"], number[]> = { app: [], baseline: [] };
      for (const server of [bench.app, bench.baseline]) await load(server.origin + path, headers, { connections: bench.connections, seconds: 2 });
      for (let round = 0; round < bench.rounds; round++) {
        for (const server of round % 2 ? [bench.baseline, bench.app] : [bench.app, bench.baseline]) {
          const result = await load(server.origin + path, headers, { connections: bench.connections, seconds: bench.seconds });
          bench.log(`  ${name} ${coding} ${server.name}: ${result.requestsPerSecond.toFixed(0)} req/s (${sample.wireBytes} bytes per response from the app)`);
          results[server.name].push(result.requestsPerSecond);
        }
      }
      const scenario = `${name}, Accept-Encoding: ${coding}`;
      rows.push(row(scenario, "throughput", "req/s", mean(results.app), mean(results.baseline)), row(scenario, "bytes per response (app)", "bytes", sample.wireBytes, null));
    }
  }
  return rows;
}

export async function wireScenario(bench: Bench): Promise<Row[]> {
  bench.log("wire: the full stream by content coding, and small responses with and without Accept-Encoding");
  return [...(await streamRows(bench)), ...(await loadRows(bench))];
}
