import { getDb, type AppDatabase } from "@/db/client";
import { preparedOnce } from "@/lib/sqlite/statements";
import { DAY_MS } from "@/lib/core/time";

/** The search index entries of the signups inserted after `@after`: every bulk writer adds them in one statement. */
export const NEW_SEARCH_ENTRIES = "INSERT INTO signup_email_search (rowid, email) SELECT id, email FROM signups WHERE id > @after";

// What triggers derive from each inserted signup (migration 0003), done once for all the rows of a
// bulk write: one grouped upsert of the day counts, one pass of the search index, the custom input
// pairs, and one grouped upsert of their counts. Much cheaper per row than the triggers.
const DERIVE = [
  `INSERT INTO signup_counts (waitlist_id, verified, referral, day, count)
   SELECT waitlist_id, verified, referral, created_at / ${DAY_MS}, count(*) FROM signups WHERE id > @after GROUP BY 1, 2, 3, 4
   ON CONFLICT (waitlist_id, verified, referral, day) DO UPDATE SET count = count + excluded.count`,
  NEW_SEARCH_ENTRIES,
  `INSERT INTO signup_inputs (waitlist_id, label, value, signup_id, verified, referral, created_at)
   SELECT waitlist_id, label, value, signup_id, verified, referral, created_at FROM signup_input_pairs WHERE signup_id > @after
   ON CONFLICT DO NOTHING`,
  `INSERT INTO signup_input_counts (waitlist_id, label, value, verified, referral, count)
   SELECT waitlist_id, label, value, verified, referral, count(*) FROM signup_inputs WHERE signup_id > @after GROUP BY 1, 2, 3, 4, 5
   ON CONFLICT DO UPDATE SET count = count + excluded.count`,
];

function statements(db: AppDatabase) {
  return preparedOnce(db, "derive.statements", () => {
    const sqlite = db.$client;
    return {
      lastId: sqlite.prepare<[], { id: number | null }>("SELECT max(id) AS id FROM signups"),
      begin: sqlite.prepare<[number]>("INSERT INTO deferred_derivations (after_signup_id) VALUES (?)"),
      end: sqlite.prepare("DELETE FROM deferred_derivations"),
      derive: DERIVE.map((text) => sqlite.prepare<{ after: number }>(text)),
    };
  });
}

/**
 * For a bulk insert of signups inside an open write transaction: from now until the returned
 * function runs, inserted signups skip the per-row triggers; that function derives their counts,
 * search index entries and input pairs in one set-based pass. Call it before COMMIT (a rollback
 * undoes both). New rows have ids above every existing one, so "id > last" selects exactly them.
 */
export function deferDerivation(db: AppDatabase = getDb()): () => void {
  if (!db.$client.inTransaction) throw new Error("deferDerivation needs an open transaction");
  const prepared = statements(db);
  const after = prepared.lastId.get()?.id ?? 0;
  prepared.begin.run(after);
  return () => {
    for (const statement of prepared.derive) statement.run({ after });
    prepared.end.run();
  };
}
