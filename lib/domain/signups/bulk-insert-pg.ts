import type { AppDatabase } from "@/db/client";
import type { NewSignup } from "./queries";
import { statusTimesOf } from "./status-times";

/**
 * Signups go in this many to a statement. The schema's statement-level triggers (db/pg/migrations)
 * derive each statement's input pairs, counts and funnel rows in one pass over its rows: the more
 * rows a statement carries, the fewer passes (and the fewer versions of each count row).
 */
export const PG_ROWS_PER_STATEMENT = 5000;

// The rows travel as one JSON text (PGlite and postgres.js take it alike), inserted in their order.
// A skipped duplicate draws its identity value and leaves it unused, as SQLite's AUTOINCREMENT does
// on a conflict: the same imports give the same ids on both engines. (lower() on a "C" text folds
// ASCII only, as SQLite's does and as the unique index reads it.)
const INSERT = `INSERT INTO signups (waitlist_id, email, verified, referral, custom_inputs, created_at, status, status_changed_at, utm_source, utm_medium, utm_campaign, referrer, invited_at, completed_at)
SELECT ?, r.email, r.verified, r.referral, r.custom_inputs, r.created_at, r.status, r.status_changed_at, r.utm_source, r.utm_medium, r.utm_campaign, r.referrer, r.invited_at, r.completed_at
FROM json_to_recordset(?::json) AS r (email text COLLATE "C", verified integer, referral integer, custom_inputs text COLLATE "C", created_at bigint, status text COLLATE "C",
  status_changed_at bigint, utm_source text COLLATE "C", utm_medium text COLLATE "C", utm_campaign text COLLATE "C", referrer text COLLATE "C", invited_at bigint, completed_at bigint, n bigint)
ORDER BY r.n
ON CONFLICT (waitlist_id, lower(email)) DO NOTHING`;

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

/**
 * PostgreSQL's side of startBulkInsert (./bulk-insert.ts): each batch of signups is one or more
 * multi-row INSERT … SELECT statements, and the schema's statement-level triggers derive what
 * SQLite's bulk writer tallies by hand (input pairs, day, pair and funnel counts); the trigram index
 * on signups.email is the search index. Nothing is left for finish().
 */
export function startPgBulkInsert(waitlistId: string, db: AppDatabase) {
  const insert = db.$engine.prepare(INSERT);
  return {
    async add(signups: readonly NewSignup[], createdAt: number): Promise<number> {
      let inserted = 0;
      for (let at = 0; at < signups.length; at += PG_ROWS_PER_STATEMENT) {
        const rows = signups.slice(at, at + PG_ROWS_PER_STATEMENT).map((signup, n) => rowOf(signup, createdAt, n));
        inserted += (await insert.run([waitlistId, JSON.stringify(rows)])).changes;
      }
      return inserted;
    },
    finish: () => Promise.resolve(),
  };
}
