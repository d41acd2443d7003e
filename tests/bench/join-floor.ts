// What a join costs without HTTP: batches of joins through runJoinJobs (the server's batched join
// path, a transaction per batch). On PostgreSQL their statements are counted and timed, with the round
// trip of one statement, so that statements per join × round trip gives the floor of the joins one
// worker can make; on SQLite (a fresh file) the time per join alone, to compare the engines' join code.
//   SECRETS_KEY=… node --import tsx tests/bench/join-floor.ts --url postgres://… [--batches 5] [--batch 200] [--round-trips 2000]
//   node --import tsx tests/bench/join-floor.ts --sqlite [--batches 5] [--batch 200]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openDatabase, type AppDatabase } from "@/db/client";
import { connectPgDriver } from "@/db/pg/client";
import type { PgConnection, PgDriver } from "@/db/pg/driver";
import { postgresDriver } from "@/db/pg/postgres-driver";
import { joinAnswer } from "@/lib/api/write-answers";
import { runJoinJobs, type JoinJob } from "@/lib/domain/joining/join";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { median, percentile } from "./measure";

/** The time until each kind of statement answered, by its text's beginning, summed. */
type TimeByStatement = Map<string, { count: number; ms: number }>;

/** `driver` with every statement it sends counted (each query and exec, and a transaction's BEGIN, first statement and COMMIT) and the queries and execs timed. */
function countingDriver(driver: PgDriver): { driver: PgDriver; statements: () => number; timeByStatement: TimeByStatement } {
  let statements = 0;
  const timeByStatement: TimeByStatement = new Map();
  const timed = async <T>(text: string, send: () => Promise<T>): Promise<T> => {
    statements++;
    const started = performance.now();
    try {
      return await send();
    } finally {
      const key = text.replace(/\s+/g, " ").slice(0, 90);
      const entry = timeByStatement.get(key) ?? { count: 0, ms: 0 };
      entry.count++;
      entry.ms += performance.now() - started;
      timeByStatement.set(key, entry);
    }
  };
  const counted = (connection: PgConnection): PgConnection => ({
    query: (text, params, rows) => timed(text, () => connection.query(text, params, rows)),
    exec: (text) => timed(text, () => connection.exec(text)),
  });
  const wrapped: PgDriver = {
    ...counted(driver),
    transaction: (first, work) => {
      statements += first ? 3 : 2;
      return driver.transaction(first, (connection) => work(counted(connection)));
    },
    reserve: () => driver.reserve(),
    location: driver.location,
    close: () => driver.close(),
  };
  return { driver: wrapped, statements: () => statements, timeByStatement };
}

async function main() {
  const { values } = parseArgs({ options: { url: { type: "string" }, sqlite: { type: "boolean", default: false }, batches: { type: "string", default: "5" }, batch: { type: "string", default: "200" }, "round-trips": { type: "string", default: "2000" } } });
  if (!values.url && !values.sqlite) throw new Error("--url postgres://… (a database the bench may write to: it adds a waitlist), or --sqlite (a fresh file)");
  // One client address for every join: the per-client limits counted, never reached.
  process.env.JOINS_PER_CLIENT_PER_HOUR = "1000000000";
  process.env.JOIN_BURST_PER_CLIENT = "1000000000";
  const counting = values.url ? countingDriver(postgresDriver(values.url)) : undefined;
  const sqliteFolder = counting ? undefined : mkdtempSync(join(tmpdir(), "join-floor-"));
  const db = counting ? connectPgDriver(counting.driver) : openDatabase(join(sqliteFolder!, "floor.db"));
  const statements = () => counting?.statements() ?? 0;
  try {
    const batches = Number(values.batches);
    const size = Number(values.batch);
    const waitlistId = (await createWaitlist({ name: `Join floor ${Date.now()}`, website: "https://floor.example.com" }, db)).id;
    await updateJoinSettings(waitlistId, { joining: "open" }, "cli", db);
    let joined = 0;
    const jobs = (): JoinJob[] =>
      Array.from({ length: size }, () => ({ input: { waitlistId, email: `floor.${++joined}@example.com`, customInputs: [], source: {}, clientAddress: "127.0.0.1" }, recorded: {} }));

    await runJoinJobs(jobs(), joinAnswer, db); // warm-up: statements prepared, caches filled
    counting?.timeByStatement.clear();
    const perJoinMs: number[] = [];
    const perJoinStatements: number[] = [];
    for (let index = 0; index < batches; index++) {
      const before = statements();
      const started = performance.now();
      const outcomes = await runJoinJobs(jobs(), joinAnswer, db);
      const ms = performance.now() - started;
      const failed = outcomes.filter((outcome) => "error" in outcome || "refused" in outcome.result);
      if (failed.length > 0) throw new Error(`${failed.length} of ${size} joins failed: ${JSON.stringify(failed[0])}`);
      perJoinMs.push(ms / size);
      perJoinStatements.push((statements() - before) / size);
    }

    const msPerJoin = median(perJoinMs);
    console.log(`batches of ${size} joins through runJoinJobs (one transaction each) on ${db.$engine.kind}, ${batches} after one warm-up:`);
    console.log(`  ${msPerJoin.toFixed(3)} ms per join (batches: ${perJoinMs.map((each) => (each * size).toFixed(0)).join(", ")} ms), so at most ${(1000 / msPerJoin).toFixed(0)} joins/s one batch after another`);
    if (counting) await reportStatements(db, counting.timeByStatement, median(perJoinStatements), msPerJoin, batches * size, Number(values["round-trips"]));
  } finally {
    await db.$engine.close();
    if (sqliteFolder) rmSync(sqliteFolder, { recursive: true, force: true });
  }
}

/** PostgreSQL's statements per join, the slowest by their time, and the floor their round trips make. */
async function reportStatements(db: AppDatabase, timeByStatement: TimeByStatement, statementsPerJoin: number, msPerJoin: number, joins: number, roundTripCount: number) {
  const slowest = [...timeByStatement].sort((a, b) => b[1].ms - a[1].ms).slice(0, 12);
  const timedMs = [...timeByStatement.values()].reduce((sum, each) => sum + each.ms, 0);
  const select = db.$engine.prepare("SELECT 1");
  for (let index = 0; index < 100; index++) await select.get([]); // warm-up
  const roundTrips: number[] = [];
  for (let index = 0; index < roundTripCount; index++) {
    const started = performance.now();
    await select.get([]);
    roundTrips.push(performance.now() - started);
  }
  const roundTripMs = median(roundTrips);
  const floorMs = statementsPerJoin * roundTripMs;
  console.log(`  ${statementsPerJoin.toFixed(1)} statements per join, of which waiting for PostgreSQL's answers: ${(timedMs / joins).toFixed(3)} ms per join; by statement (per join: count, ms):`);
  for (const [text, { count, ms }] of slowest) console.log(`    ${(count / joins).toFixed(2).padStart(5)} × ${(ms / joins).toFixed(3)} ms  ${text}`);
  console.log(`SELECT 1 through the engine, ${roundTrips.length} in sequence: median ${roundTripMs.toFixed(3)} ms, p99 ${percentile(roundTrips, 0.99).toFixed(3)} ms`);
  console.log(`floor: ${statementsPerJoin.toFixed(1)} statements × ${roundTripMs.toFixed(3)} ms = ${floorMs.toFixed(3)} ms per join, at most ${(1000 / floorMs).toFixed(0)} joins/s on one connection; the rest of a join (${(msPerJoin - floorMs).toFixed(3)} ms) is the statements' own work and this process's`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
