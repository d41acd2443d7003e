import type { AppDatabase } from "@/db/client";
import { DAY_MS } from "@/lib/core/time";
import { preparedOnce } from "@/lib/store/statements";
import { startPgBulkInsert } from "./bulk-insert-pg";
import { inputPairs } from "./input-pairs";
import type { NewSignup } from "./queries";
import { statusTimesOf } from "./status-times";
import { funnelTally, tallyPair, type PairTally } from "./bulk-tallies";

/**
 * Input pairs go in this many to a statement: better-sqlite3 spends about 1.6 µs on each call
 * whatever it does, more than SQLite spends on inserting one small row.
 */
const PAIRS_PER_STATEMENT = 100;
const PAIR_COLUMNS = 7;

/**
 * SQLite's page cache while a bulk insert runs, in KiB (the default is 2 MB). A million new signups
 * touch pages all over the unique email index and the input pairs' key: with 64 MB a million rows
 * import in 53 s instead of 61 s (measured back to back); 1 GB saves nothing more. A connection that
 * has a larger cache keeps it (the bench's dataset builder sets 256 MB). finish() restores it.
 */
const BULK_CACHE_KIB = 64 * 1024;

/** The triggers that derive from each row inserted by plain SQL (migrations 0003, 0012 and 0023), which a bulk insert does itself. */
const INSERT_TRIGGERS = ["signups_derive_after_insert", "signup_inputs_count_after_insert", "signup_input_status_counts_after_insert", "funnel_after_insert"];

// Raw for speed, per row of a 1M-row import: a row's insert took 10.4 µs raw against 14.6 µs through the builder (best of 7, 100k rows); the search index is a virtual table outside the schema.
function statements(db: AppDatabase) {
  return preparedOnce(db, "bulk-insert.statements", () => {
    const sqlite = db.$client;
    const pairsStatement = (count: number) =>
      sqlite.prepare<unknown[]>(
        `INSERT INTO signup_inputs (waitlist_id, label, value, created_at, signup_id, verified, referral) VALUES ${Array(count).fill("(?, ?, ?, ?, ?, ?, ?)").join(", ")}`,
      );
    return {
      lastId: sqlite.prepare<[], { id: number | null }>("SELECT max(id) AS id FROM signups"),
      triggers: sqlite.prepare<string[], { name: string; sql: string }>(
        `SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND name IN (${INSERT_TRIGGERS.map(() => "?").join(", ")})`,
      ),
      signup: sqlite.prepare<[string, string, number, number, string, number, string, number | null, string | null, string | null, string | null, string | null, number | null, number | null]>(
        `INSERT INTO signups (waitlist_id, email, verified, referral, custom_inputs, created_at, status, status_changed_at, utm_source, utm_medium, utm_campaign, referrer, invited_at, completed_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (waitlist_id, lower(email)) DO NOTHING`,
      ),
      pairs: pairsStatement(PAIRS_PER_STATEMENT),
      pair: pairsStatement(1),
      dayCount: sqlite.prepare<[string, number, number, string, number, number]>(
        `INSERT INTO signup_counts (waitlist_id, verified, referral, status, day, count) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (waitlist_id, verified, referral, status, day) DO UPDATE SET count = count + excluded.count`,
      ),
      pairCount: sqlite.prepare<[string, string, string, number, number, number]>(
        `INSERT INTO signup_input_counts (waitlist_id, label, value, verified, referral, count) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT DO UPDATE SET count = count + excluded.count`,
      ),
      pairStatusCount: sqlite.prepare<[string, string, string, string, number, number, number]>(
        `INSERT INTO signup_input_status_counts (waitlist_id, label, value, status, verified, referral, count) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT DO UPDATE SET count = count + excluded.count`,
      ),
      funnelCount: sqlite.prepare<[string, number, string, number]>(
        "INSERT INTO funnel_counts (waitlist_id, day, stage, count) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET count = count + excluded.count",
      ),
      funnelSourceCount: sqlite.prepare<[string, string, string, number, number]>(
        "INSERT INTO funnel_source_counts (waitlist_id, source, stage, day, count) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET count = count + excluded.count",
      ),
      funnelDuration: sqlite.prepare<[string, number, string, number, number]>(
        "INSERT INTO funnel_durations (waitlist_id, day, kind, bucket, count) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET count = count + excluded.count",
      ),
      search: sqlite.prepare<{ after: number }>("INSERT INTO signup_email_search (rowid, email) SELECT id, email FROM signups WHERE id > @after"),
    };
  });
}

/**
 * The app's one writer of signups (imports, the demo seed, the tests and the bench's dataset), on
 * either engine: many signups into one waitlist, inside an open write transaction, with everything
 * the schema derives from them (input pairs, counts, the funnel, the search index).
 */
export interface BulkInsert {
  /** Inserts these signups, in order, skipping each whose email the waitlist has already (or an earlier one had): how many went in. */
  add(signups: readonly NewSignup[], createdAt: number): Promise<number>;
  /** Writes what the engine's writer left for the end. Call before the transaction commits. */
  finish(): Promise<void>;
}

/** SQLite's writer (below) one signup at a time; PostgreSQL's (./bulk-insert-pg.ts) a statement per batch. */
export function startBulkInsert(waitlistId: string, db: AppDatabase): BulkInsert {
  if (db.$engine.kind === "postgres") return startPgBulkInsert(waitlistId, db);
  const sqlite = startSqliteBulkInsert(waitlistId, db);
  return {
    add: (signups, createdAt) => {
      let inserted = 0;
      for (const signup of signups) if (sqlite.add(signup, createdAt)) inserted++;
      return Promise.resolve(inserted);
    },
    finish: () => Promise.resolve(sqlite.finish()),
  };
}

export interface SqliteBulkInsert {
  /** Inserts one signup unless the waitlist has its email already; true when inserted. */
  add(signup: NewSignup, createdAt: number): boolean;
  /** Writes the day counts, input pair counts and search entries of every added signup. Call before COMMIT. */
  finish(): void;
}

/**
 * SQLite's bulk writer, synchronous (the tests' insertSignups and the bench's dataset call it
 * directly): many signups into one waitlist, inside an open write transaction, with what the per-row insert triggers
 * would derive (migration 0003) done in bulk instead: each signup's input pairs are read from its
 * JSON in JavaScript (inputPairs) and go in with it, a hundred to a statement; the counts are tallied
 * in memory and written once; the search index takes all the new addresses in one statement.
 *
 * The insert triggers are dropped for the transaction and created again, unchanged, by finish():
 * even a trigger that does nothing costs about 3 µs per row. No other connection ever
 * sees them missing (DDL is transactional in SQLite), and a rollback restores them with the rest.
 */
export function startSqliteBulkInsert(waitlistId: string, db: AppDatabase): SqliteBulkInsert {
  const sqlite = db.$client;
  if (!sqlite.inTransaction) throw new Error("startBulkInsert needs an open transaction");
  const prepared = statements(db);
  const after = prepared.lastId.get()?.id ?? 0;
  const triggers = prepared.triggers.all(...INSERT_TRIGGERS);
  if (triggers.length !== INSERT_TRIGGERS.length) throw new Error(`the insert triggers are missing: found ${triggers.map((trigger) => trigger.name).join(", ")}`);
  for (const { name } of triggers) sqlite.exec(`DROP TRIGGER "${name}"`);
  const cacheSize = sqlite.pragma("cache_size", { simple: true }) as number;
  // Negative: KiB; positive: pages.
  const cacheKib = cacheSize < 0 ? -cacheSize : (cacheSize * (sqlite.pragma("page_size", { simple: true }) as number)) / 1024;
  if (cacheKib < BULK_CACHE_KIB) sqlite.pragma(`cache_size = -${BULK_CACHE_KIB}`);
  // verified, referral, status, day → count; verified, referral, label, value → count; and the same with
  // the status for the signups that are not waiting (an import of an export keeps statuses).
  const dayCounts = new Map<string, number>();
  const pairCounts = new Map<string, PairTally>();
  const pairStatusCounts = new Map<string, PairTally & { status: string }>();
  const funnel = funnelTally();
  const pending: unknown[] = [];
  // A full batch in one statement; the last few, fewer than a batch, one by one.
  const flushPairs = () => {
    if (pending.length === PAIRS_PER_STATEMENT * PAIR_COLUMNS) prepared.pairs.run(pending);
    else for (let at = 0; at < pending.length; at += PAIR_COLUMNS) prepared.pair.run(pending.slice(at, at + PAIR_COLUMNS));
    pending.length = 0;
  };

  return {
    add(signup, createdAt) {
      const at = signup.createdAt ?? createdAt;
      const verified = signup.verified ? 1 : 0;
      const referral = signup.referral ? 1 : 0;
      const status = signup.status ?? "waiting";
      const source = signup.source ?? {};
      const { invitedAt, completedAt } = statusTimesOf(signup, status);
      const inserted = prepared.signup.run(
        waitlistId,
        signup.email,
        verified,
        referral,
        signup.customInputs,
        at,
        status,
        signup.statusChangedAt ?? null,
        source.utm_source ?? null,
        source.utm_medium ?? null,
        source.utm_campaign ?? null,
        source.referrer ?? null,
        invitedAt,
        completedAt,
      );
      if (inserted.changes === 0) return false;
      const day = Math.floor(at / DAY_MS);
      const dayKey = `${verified}${referral}${status} ${day}`;
      dayCounts.set(dayKey, (dayCounts.get(dayKey) ?? 0) + 1);
      funnel.add({ day, source: source.utm_source ?? source.referrer ?? "", verified, referral, createdAt: at, invitedAt, completedAt });
      for (const { label, value } of inputPairs(JSON.parse(signup.customInputs))) {
        pending.push(waitlistId, label, value, at, inserted.lastInsertRowid, verified, referral);
        if (pending.length === PAIRS_PER_STATEMENT * PAIR_COLUMNS) flushPairs();
        const pairKey = `${verified}${referral}${label}\u0000${value}`;
        tallyPair(pairCounts, pairKey, { label, value, verified, referral });
        if (status !== "waiting") tallyPair(pairStatusCounts, `${status} ${pairKey}`, { label, value, verified, referral, status });
      }
      return true;
    },
    finish() {
      flushPairs();
      for (const [key, count] of dayCounts) {
        const [status, day] = key.slice(2).split(" ");
        prepared.dayCount.run(waitlistId, Number(key[0]), Number(key[1]), status!, Number(day), count);
      }
      for (const { label, value, verified, referral, count } of pairCounts.values()) prepared.pairCount.run(waitlistId, label, value, verified, referral, count);
      for (const { label, value, status, verified, referral, count } of pairStatusCounts.values()) prepared.pairStatusCount.run(waitlistId, label, value, status, verified, referral, count);
      const byDay = new Map<string, number>();
      for (const [day, source, stage, count] of funnel.stages()) {
        prepared.funnelSourceCount.run(waitlistId, source, stage, day, count);
        byDay.set(`${day} ${stage}`, (byDay.get(`${day} ${stage}`) ?? 0) + count);
      }
      for (const [key, count] of byDay) {
        const [day, stage] = key.split(" ");
        prepared.funnelCount.run(waitlistId, Number(day), stage!, count);
      }
      for (const [waitlistDay, kind, bucket, count] of funnel.durations()) prepared.funnelDuration.run(waitlistId, waitlistDay, kind, bucket, count);
      prepared.search.run({ after });
      for (const trigger of triggers) sqlite.exec(trigger.sql);
      sqlite.pragma(`cache_size = ${cacheSize}`);
    },
  };
}
