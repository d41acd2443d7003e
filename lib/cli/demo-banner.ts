import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { AppDatabase } from "@/db/client";
import type { StartupSummary } from "@/lib/core/startup-summary";
import { DEMO_KEYS, keepOrIssueDemoKeys, type PreviousDemoKeys } from "@/lib/seed/demo-key";
import { seedDemoData } from "@/lib/seed/seed-demo";

const count = new Intl.NumberFormat("en-US");

export interface DemoBanner {
  /** Printed before the server starts. */
  starting: string;
  /** The same keys and links, printed again once the server answers, so they are the last thing on screen. */
  ready: string;
}

/** Where the demo keeps the keys it printed, beside the database: only hashes are in the database. */
export function demoKeysFile(databasePath: string): string {
  return `${databasePath}.demo-keys.json`;
}

function readPreviousKeys(file: string): PreviousDemoKeys | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as PreviousDemoKeys;
    return { admin: typeof parsed.admin === "string" ? parsed.admin : undefined, view: typeof parsed.view === "string" ? parsed.view : undefined };
  } catch {
    // A damaged file is as good as none: new keys are issued and the file written again.
    return undefined;
  }
}

/**
 * What `npm run demo` does to the database before it starts the server: seeds the demo data (once),
 * keeps the previous run's keys when they still work (kept in demoKeysFile, readable only by its
 * owner) or issues new ones, and returns the banner that hands them out, each labelled with what it
 * is for, with the start-up summary (email, public URL, database).
 */
export async function prepareDemo(db: AppDatabase, { databasePath, url, summary }: { databasePath: string; url: string; summary: StartupSummary }): Promise<DemoBanner> {
  const seeded = await seedDemoData({}, db);
  const keysFile = demoKeysFile(databasePath);
  const { kept, admin, view, revoked } = await keepOrIssueDemoKeys(readPreviousKeys(keysFile), db);
  // On PostgreSQL nothing else has made DATABASE_PATH's folder.
  if (!kept) mkdirSync(dirname(keysFile), { recursive: true });
  if (!kept) writeFileSync(keysFile, `${JSON.stringify({ admin: admin.key, view: view.key })}\n`, { mode: 0o600 });
  const seedNote = seeded.waitlists_created > 0 ? `added ${seeded.waitlists_created} demo waitlists with ${count.format(seeded.signups_created)} signups` : "demo data already present";
  const keysNote = kept
    ? [`  The keys of the previous run, kept (in ${keysFile}; delete it for new ones): a dashboard signed in with them stays signed in.`]
    : revoked.length > 0
      ? [
          `  New keys: the previous ones (${revoked.map((old) => `${old.prefix}…`).join(", ")}) were replaced and revoked; sign in again with the admin key.`,
          `  Kept in ${keysFile} (readable only by you): the next run on this database shows these same keys.`,
        ]
      : [`  Kept in ${keysFile} (readable only by you): the next run on this database shows these same keys.`];
  const body = [
    "",
    `  Waitlist Admin demo (${seedNote})`,
    "",
    `  Dashboard:   ${url}`,
    `  Admin key:   ${admin.key}`,
    `               Sign in with this one: "${DEMO_KEYS.admin.name}", role ${DEMO_KEYS.admin.role} (create, import, edit, erase, keys, audit).`,
    "",
    `  API:         ${url}/v1   (reference: ${url}/docs/api)`,
    `  View key:    ${view.key}`,
    `               For scripts: "${DEMO_KEYS.view.name}", role ${DEMO_KEYS.view.role} (read only; signs in to a view-only dashboard).`,
    `  Try it:      curl -H "Authorization: Bearer ${view.key}" ${url}/v1/waitlist`,
    "",
    ...keysNote,
    "",
    `  Email:       ${summary.email}`,
    `  Public URL:  ${summary.publicUrl}`,
    `  Database:    ${summary.database}`,
    "",
  ];
  return {
    starting: [...body, "  Starting the server…", ""].join("\n"),
    ready: [...body, `  Ready at ${url}. Stop the server with Ctrl+C.`, ""].join("\n"),
  };
}
