import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signupPosition } from "@/lib/domain/joining/position";
import type { SignupScope } from "@/lib/domain/signups/filter";
import { signupJsonBatches, signupJsonPage, signupRowBatches, signupTextPage } from "@/lib/domain/signups/queries";
import type { SignupStatus } from "@/lib/domain/signups/status";
import { createWaitlist, listWaitlists } from "@/lib/domain/waitlists/queries";
import type { Position } from "@/lib/store/keyset";
import { allOf } from "@/tests/support/batches";
import { insertSignups } from "@/tests/support/insert-signups";
import { queryPlan, statementsPreparedBy } from "@/tests/support/query-plans";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

// A list imported without created_at: every signup has the same one (the import's time). Above
// access.ts's SMALL_LIST, so that a status filter reads the status index.
const COUNT = 60_000;
const AT = Date.UTC(2026, 0, 1, 12);
const STATUSES: SignupStatus[] = ["waiting", "waiting", "invited", "waiting", "rejected"];

let temp: TempDatabase;
let waitlistId: string;
let ids: number[];

beforeAll(async () => {
  temp = tempDatabase();
  waitlistId = (await createWaitlist({ name: "Imported", website: "https://e.com" }, temp.db)).id;
  insertSignups(
    waitlistId,
    Array.from({ length: COUNT }, (_, index) => ({
      email: `tie${index}@example.com`,
      verified: index % 3 !== 0,
      referral: index % 4 === 0,
      customInputs: "[]",
      status: STATUSES[index % STATUSES.length],
    })),
    temp.db,
    AT,
  );
  ids = (temp.db.$client.prepare("SELECT id FROM signups WHERE waitlist_id = ? ORDER BY id").all(waitlistId) as { id: number }[]).map((row) => row.id);
}, 60_000);
afterAll(() => temp.close());

// The plan of a seek to a position: one range of an index whose last two columns are (created_at,
// rowid), bounded by the position on both (the old plan, `created_at>?`, started at the tie's first row).
const SEEK = /USING (COVERING )?INDEX \w+ \(waitlist_id=\?( AND status=\?)?( AND created_at>\?)? AND \(created_at,rowid\)[<>]\(\?,\?\)/;

/** The plans of the statements `run` prepares that compare (created_at, id) with a position. */
async function keysetPlans(run: () => Promise<unknown>): Promise<string[]> {
  return (await statementsPreparedBy(temp.db, run))
    .filter((text) => /\(\s*"?(\w+"?\.)?"?created_at"?\s*,/i.test(text))
    .map((text) => queryPlan(temp.db, text));
}

const SCOPES: Omit<SignupScope, "waitlistId">[] = [{}, { verified: true }, { referral: true }, { verified: false, referral: true }, { status: ["invited", "rejected"] }, { status: ["waiting"] }];

describe("keyset walks on a list whose signups share one created_at", () => {
  it.each(SCOPES)("seek straight to their position with one index range: %j", async (filters) => {
    const scope = { waitlistId, ...filters };
    const after: Position = { createdAt: AT, id: ids[COUNT / 2]! };
    const plans = await keysetPlans(async () => {
      await signupJsonPage({ scope, limit: 10, after }, temp.db);
      await signupTextPage(scope, after, 10, temp.db);
      await signupRowBatches(scope, 10, temp.db).next();
    });
    expect(plans).toHaveLength(3);
    for (const plan of plans) expect(plan).toMatch(SEEK);
  });

  it("count a signup's place in line from its own position, before and after it", async () => {
    const plans = await keysetPlans(() => signupPosition(waitlistId, ids[COUNT / 2]!, temp.db));
    // after it, before it (reached when more than half its day came after it: not here), and those before it that left waiting.
    expect(plans.length).toBeGreaterThanOrEqual(2);
    for (const plan of plans) expect(plan).toMatch(SEEK);
  });

  it("page the waitlists by (created_at, rowid) in one range too", async () => {
    const [plan] = await keysetPlans(() => listWaitlists({ limit: 1, after: { createdAt: 0, id: 1 } }, temp.db));
    expect(plan).toMatch(/USING (COVERING )?INDEX waitlists_created_at_idx \(\(created_at,rowid\)>\(\?,\?\)\)/);
  });

  it("stream every signup once, in id order within the tie, across batches", async () => {
    const streamed = (await allOf(signupJsonBatches({ waitlistId }, 1000, temp.db, ["id"]))).map((json) => (JSON.parse(json) as { id: string }).id);
    expect(streamed).toHaveLength(COUNT);
    expect(new Set(streamed).size).toBe(COUNT);
    expect(streamed).toEqual(ids.map(String));
  });

  it("page every filtered signup once with cursors, exports and batches alike", async () => {
    const scope = { waitlistId, verified: true, status: ["waiting", "invited"] as SignupStatus[] };
    const expected = ids.filter((_, index) => index % 3 !== 0 && ["waiting", "invited"].includes(STATUSES[index % STATUSES.length]!));
    const paged: number[] = [];
    let after: Position | undefined;
    do {
      const page = await signupJsonPage({ scope, limit: 777, after, fields: ["id"] }, temp.db);
      paged.push(...page.items.map((json) => Number((JSON.parse(json) as { id: string }).id)));
      after = page.next ?? undefined;
    } while (after);
    expect(paged).toEqual(expected);

    const exported: number[] = [];
    let from: Position | undefined;
    do {
      const page = await signupTextPage(scope, from, 500, temp.db);
      exported.push(...page.rows.map((row) => row[1]));
      from = page.next;
    } while (from);
    expect(exported).toEqual(expected);
    expect((await allOf(signupRowBatches(scope, 1000, temp.db))).map((row) => row.id)).toEqual(expected);
  });

  it("place every waiting signup of the tie by id", async () => {
    const waiting = ids.filter((_, index) => STATUSES[index % STATUSES.length] === "waiting");
    for (const index of [0, 1, waiting.length / 2, waiting.length - 1]) expect(await signupPosition(waitlistId, waiting[index]!, temp.db)).toBe(index + 1);
    expect(await signupPosition(waitlistId, ids[2]!, temp.db)).toBeNull();
  });
});
