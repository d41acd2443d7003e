import { getDb, type AppDatabase } from "@/db/client";
import { memoizeWhileUnchanged } from "@/lib/sqlite/memoize";
import { countSignups, signupsPerDay, type SignupCounts } from "./counts";
import { scopeKey, type SignupScope } from "./filter";

// The dashboard's aggregates, remembered until the database changes (see memoizeWhileUnchanged):
// the same numbers as countSignups/signupsPerDay, without recounting on every page turn.

export function cachedCountSignups(scope: SignupScope, db: AppDatabase = getDb()): SignupCounts {
  return memoizeWhileUnchanged(db, `counts:${scopeKey(scope)}`, () => countSignups(scope, db));
}

export function cachedSignupsPerDay(scope: SignupScope, since: Date, db: AppDatabase = getDb()) {
  return memoizeWhileUnchanged(db, `per-day:${since.getTime()}:${scopeKey(scope)}`, () => signupsPerDay(scope, since, db));
}
