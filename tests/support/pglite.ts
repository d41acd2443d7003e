import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { applyPgMigrations } from "@/db/pg/migrate";

/** An in-memory PostgreSQL (PGlite) with db/pg/migrations applied; boots in 1–2 s, so share one per test file. */
export async function migratedPglite(): Promise<PGlite> {
  const pg = await PGlite.create({ extensions: { pg_trgm } });
  await applyPgMigrations(pg);
  return pg;
}
