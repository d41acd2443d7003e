import { getDb, openReadOnlyDatabase, type AppDatabase } from "@/db/client";
import { env } from "@/lib/core/env";
import { cachedCountSignups, cachedSignupsPerDay } from "../signups/cached-stats";
import { referralPanel } from "../joining/referral-panel";
import { flagFacet } from "../fraud/facet";
import { milestoneFacet } from "../milestones/facet";
import { sourceFacets } from "../funnel/facets";
import { funnelStats } from "../funnel/stats";
import { countSignupsSince } from "../signups/counts";
import { inputFacets } from "../signups/facets";
import { searchFacetValues } from "../signups/facet-search";
import { findSignupsByEmail } from "../signups/find";
import { listSignupRows } from "../signups/queries";
import type { StatusAction } from "../signups/status";
import { previewStatusAction } from "../signups/status-preview";
import type { StatusSelection } from "../signups/transitions";
import { launchSteps } from "../waitlists/launch-steps";

// The dashboard's reads, by name, so that a reader thread (lib/server/read-pool.ts) can run them on
// its own connection with arguments that crossed a thread (structured clones: Dates stay Dates).
export const READ_TASKS = {
  listSignupRows: async (db: AppDatabase, input: Parameters<typeof listSignupRows>[0]) => await listSignupRows(input, db),
  countSignups: async (db: AppDatabase, scope: Parameters<typeof cachedCountSignups>[0]) => await cachedCountSignups(scope, db),
  countSignupsSince: async (db: AppDatabase, scope: Parameters<typeof countSignupsSince>[0], since: Date) => await countSignupsSince(scope, since, db),
  signupsPerDay: async (db: AppDatabase, scope: Parameters<typeof cachedSignupsPerDay>[0], since: Date) => await cachedSignupsPerDay(scope, since, db),
  inputFacets: async (db: AppDatabase, scope: Parameters<typeof inputFacets>[0], options?: Parameters<typeof inputFacets>[1]) => await inputFacets(scope, options, db),
  searchFacetValues: async (db: AppDatabase, scope: Parameters<typeof searchFacetValues>[0], facet: string, text: string, limit: number) => await searchFacetValues(scope, facet, text, limit, db),
  findSignupsByEmail: async (db: AppDatabase, input: Parameters<typeof findSignupsByEmail>[0]) => await findSignupsByEmail(input, db),
  previewStatusAction: async (db: AppDatabase, action: StatusAction, selection: StatusSelection) => await previewStatusAction(action, selection, db),
  referralPanel: async (db: AppDatabase, waitlistId: string, limit: number) => await referralPanel(waitlistId, limit, db),
  flagFacet: async (db: AppDatabase, scope: Parameters<typeof flagFacet>[0]) => await flagFacet(scope, db),
  milestoneFacet: async (db: AppDatabase, scope: Parameters<typeof milestoneFacet>[0]) => await milestoneFacet(scope, db),
  launchSteps: async (db: AppDatabase, waitlistId: string, emailConfigured: boolean) => await launchSteps(waitlistId, emailConfigured, db),
  sourceFacets: async (db: AppDatabase, scope: Parameters<typeof sourceFacets>[0]) => await sourceFacets(scope, undefined, db),
  funnelStats: async (db: AppDatabase, waitlistId: string, range: Parameters<typeof funnelStats>[1]) => await funnelStats(waitlistId, range, db),
};

export type ReadTasks = typeof READ_TASKS;
export type ReadTaskName = keyof ReadTasks;
/** A task's arguments after its connection. */
export type ReadTaskArgs<Name extends ReadTaskName> = Parameters<ReadTasks[Name]> extends [AppDatabase, ...infer Rest] ? Rest : never;
export type ReadTaskResult<Name extends ReadTaskName> = Awaited<ReturnType<ReadTasks[Name]>>;

let readOnly: AppDatabase | undefined;

/** Runs a task on this thread's read-only connection (opened on first use); on PostgreSQL, on the app's pool. */
export function runReadTask<Name extends ReadTaskName>(name: Name, args: ReadTaskArgs<Name>): Promise<ReadTaskResult<Name>> {
  const { DATABASE_URL, DATABASE_PATH } = env();
  readOnly ??= DATABASE_URL ? getDb() : openReadOnlyDatabase(DATABASE_PATH);
  const task = READ_TASKS[name] as unknown as (db: AppDatabase, ...rest: ReadTaskArgs<Name>) => Promise<ReadTaskResult<Name>>;
  return task(readOnly, ...args);
}
