import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { openDatabase } from "@/db/client";
import { openPostgres } from "@/db/pg/client";
import { databaseLimitStore } from "@/lib/domain/limits/shared";
import { LimitBook, memoryLimits, StoredLimits, type Limits, type WindowSpec } from "@/lib/http/limits";
import { startPostgres } from "@/tests/support/pg-server";

// What one limit check costs a /v1 request (auth.ts: hitUnlessExhausted, a guard read and a hit), in
// process memory (SQLite's path, LimitBook) and in rate_limits (StoredLimits: PostgreSQL's path,
// here also on SQLite), µs per check over `hits` checks spread across 1,000 API keys, one at a time.
//   npx tsx tests/bench/load/limit-hits.ts [hits=100000] [--postgres]

const [hitsText = "100000"] = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
const hits = Number(hitsText);
const withPostgres = process.argv.includes("--postgres");
const PER_KEY: WindowSpec = { name: "per-key", limit: 1_000_000, windowMs: 60_000, maxKeys: 50_000 };
const FAILURES: WindowSpec = { name: "auth-failures", limit: 20, windowMs: 60_000, maxKeys: 100_000 };

async function microsPerCheck(limits: Limits, count: number): Promise<number> {
  const started = performance.now();
  for (let index = 0; index < count; index++) await limits.hitUnlessExhausted(PER_KEY, `key_${index % 1000}`, FAILURES, `203.0.113.${index % 250}`);
  return ((performance.now() - started) * 1000) / count;
}

async function main() {
  const folder = mkdtempSync(join(tmpdir(), "limit-hits-"));
  process.env.SECRETS_KEY ??= "a".repeat(64);
  try {
    const sqlite = openDatabase(join(folder, "bench.db"));
    const results: Record<string, number> = {};
    results["memory (LimitBook)"] = await microsPerCheck(memoryLimits(new LimitBook()), hits);
    results["SQLite rate_limits, in-process"] = await microsPerCheck(new StoredLimits(databaseLimitStore(sqlite)), hits);
    await sqlite.$engine.close();
    if (withPostgres) {
      const server = await startPostgres();
      try {
        const pg = await openPostgres(server.url);
        results["PostgreSQL 15 rate_limits (UNLOGGED), TCP on this machine"] = await microsPerCheck(new StoredLimits(databaseLimitStore(pg)), Math.min(hits, 20_000));
        await pg.$engine.close();
      } finally {
        await server.stop();
      }
    }
    for (const [name, micros] of Object.entries(results)) console.log(`${name}: ${micros.toFixed(2)} µs per check`);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

void main();
