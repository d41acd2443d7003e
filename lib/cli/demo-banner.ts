import type { AppDatabase } from "@/db/client";
import { DEMO_KEYS, issueDemoKeys } from "@/lib/seed/demo-key";
import { seedDemoData } from "@/lib/seed/seed-demo";

const count = new Intl.NumberFormat("en-US");

export interface DemoBanner {
  /** Printed before the server starts. */
  starting: string;
  /** The same keys and links, printed again once the server answers, so they are the last thing on screen. */
  ready: string;
}

/**
 * What `npm run demo` does to the database before it starts the server: seeds the demo data (once),
 * replaces the two demo keys, and returns the banner that hands them out, each labelled with what it is for.
 */
export function prepareDemo(db: AppDatabase, { databasePath, url }: { databasePath: string; url: string }): DemoBanner {
  const seeded = seedDemoData({}, db);
  const { admin, view, revoked } = issueDemoKeys(db);
  const seedNote =
    seeded.waitlists_created > 0 ? `added ${seeded.waitlists_created} demo waitlists with ${count.format(seeded.signups_created)} signups` : "demo data already present";
  const body = [
    "",
    `  Waitlist Admin demo (database ${databasePath}: ${seedNote})`,
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
    "  Both keys are shown only now (only their hashes are stored); each run of the demo replaces them.",
    ...(revoked.length > 0 ? [`  Revoked the previous demo keys ${revoked.map((old) => `${old.prefix}…`).join(", ")}.`] : []),
  ];
  return {
    starting: [...body, "  Starting the server…", ""].join("\n"),
    ready: [...body, `  Ready at ${url}. Stop the server with Ctrl+C.`, ""].join("\n"),
  };
}
