import { getDb, type AppDatabase } from "@/db/client";
import { memoizeWhileUnchanged } from "@/lib/store/memoize";
import { countSignups, signupsPerDay, type SignupCounts } from "./counts";
import { scopeKey, type SignupScope } from "./filter";

// The dashboard's aggregates, remembered until the database changes (see memoizeWhileUnchanged):
// the same numbers as countSignups/signupsPerDay, without recounting on every page turn.

export async function cachedCountSignups(scope: SignupScope, db: AppDatabase = getDb()): Promise<SignupCounts> {
  return await memoizeWhileUnchanged(db, `counts:${scopeKey(scope)}`, async () => await countSignups(scope, db));
}

export async function cachedSignupsPerDay(scope: SignupScope, since: Date, db: AppDatabase = getDb()) {
  return await memoizeWhileUnchanged(db, `per-day:${since.getTime()}:${scopeKey(scope)}`, async () => await signupsPerDay(scope, since, db));
}
