import type { AppDatabase } from "@/db/client";
import { DAY_MS } from "@/lib/core/time";
import { funnelTally, tallyPair, type PairTally } from "./bulk-tallies";
import { inputPairs } from "./input-pairs";
import type { NewSignup } from "./queries";
import { statusTimesOf } from "./status-times";

/** Signups go in this many to a statement (their input pairs in one more). */
export const PG_ROWS_PER_STATEMENT = 5000;

// While the writer's statements run, the insert triggers of signups and signup_inputs derive nothing
// (migration 0004): the writer derives it, as SQLite's does. Local to the transaction, and set back
// after each batch, so that any other insert of the transaction derives as usual.
const DERIVE_HERE = "SELECT set_config('waitlist.bulk_insert', 'on', true)";
const DERIVE_IN_TRIGGERS = "SELECT set_config('waitlist.bulk_insert', 'off', true)";

// The rows travel as one JSON text (PGlite and postgres.js take it alike), inserted in their order.
// A skipped duplicate draws its identity value and leaves it unused, as SQLite's AUTOINCREMENT does
// on a conflict: the same imports give the same ids on both engines. (lower() on a "C" text folds
// ASCII only, as SQLite's does and as the unique index reads it.) The rows inserted come back with
// what the derived tables count.
const INSERT = `INSERT INTO signups (waitlist_id, email, verified, referral, custom_inputs, created_at, status, status_changed_at, utm_source, utm_medium, utm_campaign, referrer, invited_at, completed_at)
SELECT ?, r.email, r.verified, r.referral, r.custom_inputs, r.created_at, r.status, r.status_changed_at, r.utm_source, r.utm_medium, r.utm_campaign, r.referrer, r.invited_at, r.completed_at
FROM json_to_recordset(?::json) AS r (email text COLLATE "C", verified integer, referral integer, custom_inputs text COLLATE "C", created_at bigint, status text COLLATE "C",
  status_changed_at bigint, utm_source text COLLATE "C", utm_medium text COLLATE "C", utm_campaign text COLLATE "C", referrer text COLLATE "C", invited_at bigint, completed_at bigint, n bigint)
ORDER BY r.n
ON CONFLICT (waitlist_id, lower(email)) DO NOTHING
RETURNING id, verified, referral, custom_inputs, created_at, status, coalesce(utm_source, referrer, ''), invited_at, completed_at`;
type Inserted = [id: number, verified: number, referral: number, customInputs: string, createdAt: number, status: string, source: string, invitedAt: number | null, completedAt: number | null];

// No ON CONFLICT: the pairs belong to signups just inserted, and inputPairs gives each pair of a
// signup once (with it, speculative insertion cost the statement about a third more).
const INSERT_PAIRS = `INSERT INTO signup_inputs (waitlist_id, label, value, signup_id, verified, referral, created_at)
SELECT ?, r.label, r.value, r.signup_id, r.verified, r.referral, r.created_at
FROM json_to_recordset(?::json) AS r (label text, value text, signup_id bigint, verified integer, referral integer, created_at bigint)`;

// The tallies, added to the counts once (each a JSON array of rows).
const ADD_COUNTS = [
  `INSERT INTO signup_counts AS t (waitlist_id, verified, referral, status, day, count)
   SELECT ?, r.verified, r.referral, r.status, r.day, r.count FROM json_to_recordset(?::json) AS r (verified integer, referral integer, status text, day bigint, count bigint)
   ON CONFLICT (waitlist_id, verified, referral, status, day) DO UPDATE SET count = t.count + excluded.count`,
  `INSERT INTO signup_input_counts AS t (waitlist_id, label, value, verified, referral, count)
   SELECT ?, r.label, r.value, r.verified, r.referral, r.count FROM json_to_recordset(?::json) AS r (label text, value text, verified integer, referral integer, count bigint)
   ON CONFLICT (waitlist_id, label, value, verified, referral) DO UPDATE SET count = t.count + excluded.count`,
  `INSERT INTO signup_input_status_counts AS t (waitlist_id, label, value, status, verified, referral, count)
   SELECT ?, r.label, r.value, r.status, r.verified, r.referral, r.count FROM json_to_recordset(?::json) AS r (label text, value text, status text, verified integer, referral integer, count bigint)
   ON CONFLICT (waitlist_id, label, value, status, verified, referral) DO UPDATE SET count = t.count + excluded.count`,
  `INSERT INTO funnel_counts AS t (waitlist_id, day, stage, count)
   SELECT ?, r.day, r.stage, r.count FROM json_to_recordset(?::json) AS r (day bigint, stage text, count bigint)
   ON CONFLICT (waitlist_id, day, stage) DO UPDATE SET count = t.count + excluded.count`,
  `INSERT INTO funnel_source_counts AS t (waitlist_id, source, stage, day, count)
   SELECT ?, r.source, r.stage, r.day, r.count FROM json_to_recordset(?::json) AS r (source text, stage text, day bigint, count bigint)
   ON CONFLICT (waitlist_id, source, stage, day) DO UPDATE SET count = t.count + excluded.count`,
  `INSERT INTO funnel_durations AS t (waitlist_id, kind, bucket, day, count)
   SELECT ?, r.kind, r.bucket, r.day, r.count FROM json_to_recordset(?::json) AS r (kind text, bucket bigint, day bigint, count bigint)
   ON CONFLICT (waitlist_id, kind, bucket, day) DO UPDATE SET count = t.count + excluded.count`,
] as const;

/** One signup as a row of the statement's JSON (`n`, its place in the batch, is added). */
function rowOf(signup: NewSignup, createdAt: number, n: number) {
  const status = signup.status ?? "waiting";
  const source = signup.source ?? {};
  const { invitedAt, completedAt } = statusTimesOf(signup, status);
  return {
    email: signup.email,
    verified: signup.verified ? 1 : 0,
    referral: signup.referral ? 1 : 0,
    custom_inputs: signup.customInputs,
    created_at: signup.createdAt ?? createdAt,
    status,
    status_changed_at: signup.statusChangedAt ?? null,
    utm_source: source.utm_source ?? null,
    utm_medium: source.utm_medium ?? null,
    utm_campaign: source.utm_campaign ?? null,
    referrer: source.referrer ?? null,
    invited_at: invitedAt,
    completed_at: completedAt,
    n,
  };
}

/** PostgreSQL's day of a time, as the triggers compute it (created_at / 86400000: bigint division truncates). */
const dayOf = (at: number) => Math.trunc(at / DAY_MS);

/**
 * PostgreSQL's side of startBulkInsert (./bulk-insert.ts), the same as SQLite's: each batch of signups
 * is one or more multi-row INSERT … SELECT statements with the insert triggers idle, each followed by
 * one of the new signups' input pairs; the counts (days, pairs, pairs by status, the funnel) are
 * tallied from the rows inserted and added once by finish(). The trigram index on signups.email is
 * the search index.
 */
export function startPgBulkInsert(waitlistId: string, db: AppDatabase) {
  const insert = db.$engine.prepare(INSERT);
  const insertPairs = db.$engine.prepare(INSERT_PAIRS);
  const deriveHere = db.$engine.prepare(DERIVE_HERE);
  const deriveInTriggers = db.$engine.prepare(DERIVE_IN_TRIGGERS);
  const dayCounts = new Map<string, { verified: number; referral: number; status: string; day: number; count: number }>();
  const pairCounts = new Map<string, PairTally>();
  const pairStatusCounts = new Map<string, PairTally & { status: string }>();
  const funnel = funnelTally();

  /** Tallies the inserted rows and gives their input pairs as rows of signup_inputs. */
  function derive(inserted: Inserted[]) {
    const pairs: { label: string; value: string; signup_id: number; verified: number; referral: number; created_at: number }[] = [];
    for (const [id, verified, referral, customInputs, createdAt, status, source, invitedAt, completedAt] of inserted) {
      const day = dayOf(createdAt);
      const dayKey = `${verified}${referral}${status} ${day}`;
      const tally = dayCounts.get(dayKey);
      if (tally) tally.count++;
      else dayCounts.set(dayKey, { verified, referral, status, day, count: 1 });
      funnel.add({ day, source, verified, referral, createdAt, invitedAt, completedAt });
      for (const { label, value } of inputPairs(JSON.parse(customInputs))) {
        pairs.push({ label, value, signup_id: id, verified, referral, created_at: createdAt });
        const pairKey = `${verified}${referral}${label}\u0000${value}`;
        tallyPair(pairCounts, pairKey, { label, value, verified, referral });
        if (status !== "waiting") tallyPair(pairStatusCounts, `${status} ${pairKey}`, { label, value, verified, referral, status });
      }
    }
    return pairs;
  }

  return {
    async add(signups: readonly NewSignup[], createdAt: number): Promise<number> {
      let count = 0;
      await deriveHere.run([]);
      try {
        for (let at = 0; at < signups.length; at += PG_ROWS_PER_STATEMENT) {
          const rows = signups.slice(at, at + PG_ROWS_PER_STATEMENT).map((signup, n) => rowOf(signup, createdAt, n));
          const inserted = (await insert.values([waitlistId, JSON.stringify(rows)])) as Inserted[];
          count += inserted.length;
          const pairs = derive(inserted);
          if (pairs.length > 0) await insertPairs.run([waitlistId, JSON.stringify(pairs)]);
        }
      } finally {
        await deriveInTriggers.run([]);
      }
      return count;
    },
    async finish(): Promise<void> {
      const byDay = new Map<string, { day: number; stage: string; count: number }>();
      const sources = funnel.stages().map(([day, source, stage, count]) => {
        const key = `${day} ${stage}`;
        const tally = byDay.get(key);
        if (tally) tally.count += count;
        else byDay.set(key, { day, stage, count });
        return { source, stage, day, count };
      });
      const durations = funnel.durations().map(([day, kind, bucket, count]) => ({ kind, bucket, day, count }));
      const tallies = [[...dayCounts.values()], [...pairCounts.values()], [...pairStatusCounts.values()], [...byDay.values()], sources, durations];
      for (const [index, rows] of tallies.entries()) if (rows.length > 0) await db.$engine.prepare(ADD_COUNTS[index]!).run([waitlistId, JSON.stringify(rows)]);
    },
  };
}
