import { openDatabase } from "@/db/client";
import type { SignupFilter } from "@/lib/domain/signups/filter";
import { countSignups } from "@/lib/domain/signups/counts";
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

/**
 * Email lookups at the query layer, on a connection of this process: what the dashboard needs for
 * a search (its first page of 25 rows and the counts), timed without HTTP or rendering. A signup
 * is written from another connection before each run, so this connection's page cache is emptied
 * as on a live list.
 */
export function emailLookup(bench: Pick<Bench, "databasePath" | "bigWaitlistId" | "sampleEmail" | "scaleLabel" | "pageRequests" | "writeSignup" | "log">): Row[] {
  const db = openDatabase(bench.databasePath);
  try {
    return lookups(bench.sampleEmail).map(({ name, filter }) => {
      const scope = { waitlistId: bench.bigWaitlistId, ...filter };
      const lookup = () => ({ rows: listSignupRows({ scope, offset: 0, limit: 25 }, db), counts: countSignups(scope, db) });
      const first = lookup(); // warm-up: prepares the statements
      const times: number[] = [];
      for (let run = 0; run < bench.pageRequests; run++) {
        bench.writeSignup();
        const started = performance.now();
        lookup();
        times.push(performance.now() - started);
      }
      const scenario = `email lookup (${bench.scaleLabel}, query layer): ${name}`;
      bench.log(`${scenario}: ${first.rows.length} rows, total ${first.counts.total.toLocaleString("en")}${first.counts.exact ? "" : "+"}, median ${median(times).toFixed(1)} ms`);
      return row(scenario, "median first page + counts", "ms", median(times), null, { appBelow: TARGET_MS });
    });
  } finally {
    db.$client.close();
  }
}
