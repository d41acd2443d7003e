import "server-only";
import { randomInt } from "node:crypto";
import { sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { preparedSql } from "@/lib/store/statements";

// A lease: something only one holder may have at a time among every server on the database (one of
// a session's export slots, the import lock), kept in rate_limits beside the counters: a row whose
// window_end is when the lease lapses and whose count is its holder's random token. The holder
// renews it every third of its length while it holds it; one that dies (killed, its machine gone)
// stops renewing, and another may take it once it lapsed. A lapsed lease is an ended window, so the
// counters' prune (./counter.ts) deletes it.

const placeholder = sql.placeholder;
/** Tokens fit both engines' integers and JavaScript's exact ones. */
const TOKEN_LIMIT = 2 ** 47;

// In SQL: an upsert that replaces the row only when its lease lapsed; RETURNING gives no row when it stands.
function claimStatement(db: AppDatabase) {
  return preparedSql<{ token: number }>(
    db,
    "limits.lease.claim",
    () => sql`INSERT INTO rate_limits (key, window_end, count) VALUES (${placeholder("key")}, ${placeholder("until")}, ${placeholder("token")})
       ON CONFLICT (key) DO UPDATE SET window_end = excluded.window_end, count = excluded.count WHERE rate_limits.window_end <= ${placeholder("now")}
       RETURNING count AS token`,
  );
}

function renewStatement(db: AppDatabase) {
  return preparedSql(db, "limits.lease.renew", () => sql`UPDATE rate_limits SET window_end = ${placeholder("until")} WHERE key = ${placeholder("key")} AND count = ${placeholder("token")}`);
}

function releaseStatement(db: AppDatabase) {
  return preparedSql(db, "limits.lease.release", () => sql`DELETE FROM rate_limits WHERE key = ${placeholder("key")} AND count = ${placeholder("token")}`);
}

/**
 * Takes the lease `key` for `leaseMs`, renewed until released: its release (which may be called any
 * number of times), or null while another holder's lease stands.
 */
export async function holdLease(key: string, leaseMs: number, db: AppDatabase = getDb(), now = Date.now()): Promise<(() => Promise<void>) | null> {
  const token = randomInt(1, TOKEN_LIMIT);
  const claimed = await claimStatement(db).get({ key, until: now + leaseMs, token, now });
  if (claimed?.token !== token) return null;
  const renew = async () => {
    try {
      await renewStatement(db).run({ key, token, until: Date.now() + leaseMs });
    } catch {
      // The database unreachable for a moment: tried again at the next turn; the lease lapses only after three.
    }
  };
  const renewal = setInterval(() => void renew(), leaseMs / 3);
  renewal.unref();
  let released: Promise<void> | undefined;
  return () => {
    clearInterval(renewal);
    return (released ??= releaseStatement(db)
      .run({ key, token })
      .then(() => {}));
  };
}
