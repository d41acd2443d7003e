import { openDatabase } from "@/db/client";
import type { SignupFilter } from "@/lib/domain/signups/filter";
import { countSignups } from "@/lib/domain/signups/counts";
import { findSignupsByEmail } from "@/lib/domain/signups/find";
import { listSignupRows } from "@/lib/domain/signups/queries";
import { COMMON_FRAGMENT } from "./dashboard-views";
import { median } from "./measure";
import { BIGGEST_COMPANY_DOMAIN } from "./people";
import { row, type Row } from "./report";
import type { Bench } from "./scenarios";

const TARGET_MS = 50;

/** The lookups an admin makes: a whole address, its start, a company domain, a common and a rare fragment. */
function lookups(sampleEmail: string): { name: string; filter: SignupFilter }[] {
  const localName = /^[a-z._]+/.exec(sampleEmail)![0];
  const digits = /\d{4}/.exec(sampleEmail)![0];
  return [
    { name: "full address", filter: { email: sampleEmail } },
    { name: `prefix "${localName}"`, filter: { emailContains: localName } },
    { name: `domain "@${BIGGEST_COMPANY_DOMAIN}"`, filter: { emailContains: `@${BIGGEST_COMPANY_DOMAIN}` } },
    { name: `substring "${COMMON_FRAGMENT}"`, filter: { emailContains: COMMON_FRAGMENT } },
    { name: `substring "${digits}"`, filter: { emailContains: digits } },
  ];
}

type LookupBench = Pick<Bench, "databasePath" | "bigWaitlistId" | "sampleEmail" | "scaleLabel" | "pageRequests" | "writeSignup" | "log">;

/** The median time of `work`, each run after a write from another connection; the first run only warms up. */
async function medianRun(bench: LookupBench, work: () => Promise<unknown>): Promise<number> {
  await work();
  const times: number[] = [];
  for (let run = 0; run < bench.pageRequests; run++) {
    await bench.writeSignup();
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return median(times);
}

/**
 * Email lookups at the query layer, on a connection of this process: what the dashboard needs for
 * a search (its first page of 25 rows and the counts), and the person finder across waitlists
 * (its first 20 signups), timed without HTTP or rendering. A signup is written from another
 * connection before each run, so this connection's page cache is emptied as on a live list.
 */
export async function emailLookup(bench: LookupBench): Promise<Row[]> {
  const db = openDatabase(bench.databasePath);
  try {
    const rows: Row[] = [];
    for (const { name, filter } of lookups(bench.sampleEmail)) {
      const scope = { waitlistId: bench.bigWaitlistId, ...filter };
      const counts = await countSignups(scope, db);
      const ms = await medianRun(bench, async () => {
        await listSignupRows({ scope, offset: 0, limit: 25 }, db);
        await countSignups(scope, db);
      });
      const scenario = `email lookup (${bench.scaleLabel}, query layer): ${name}`;
      bench.log(`${scenario}: ${counts.total.toLocaleString("en")}${counts.exact ? "" : "+"} signups, median ${ms.toFixed(1)} ms`);
      rows.push(row(scenario, "median first page + counts", "ms", ms, null, { appBelow: TARGET_MS }));
    }
    const finds: { name: string; input: Parameters<typeof findSignupsByEmail>[0] }[] = [
      { name: "full address", input: { email: bench.sampleEmail, limit: 20 } },
      { name: `contains "${COMMON_FRAGMENT}"`, input: { contains: COMMON_FRAGMENT, limit: 20 } },
    ];
    for (const { name, input } of finds) {
      const ms = await medianRun(bench, () => findSignupsByEmail(input, db));
      const scenario = `person finder (${bench.scaleLabel}, query layer, every waitlist): ${name}`;
      bench.log(`${scenario}: median ${ms.toFixed(1)} ms`);
      rows.push(row(scenario, "median first 20 signups", "ms", ms, null, { appBelow: TARGET_MS }));
    }
    return rows;
  } finally {
    db.$client.close();
  }
}
