import { afterAll, beforeAll, expect, it } from "vitest";
import type { AppDatabase } from "@/db/client";
import { aggregatePlan, deepPageAccess, planAccess } from "@/lib/domain/signups/access";
import { startBulkInsert } from "@/lib/domain/signups/bulk-insert";
import { countSignups, signupsPerDay } from "@/lib/domain/signups/counts";
import { inputFacets } from "@/lib/domain/signups/facets";
import { listSignupRows, type NewSignup } from "@/lib/domain/signups/queries";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { writeTransaction } from "@/lib/store/transaction";
import { pgliteDatabase } from "@/tests/support/pglite";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

// A page deep into an input: PostgreSQL collects the input's signups and sorts them once the walk to
// the page would read more (access.ts, deepPageAccess), SQLite walks the list to it. Past SMALL_LIST
// signups, so that the access planner sizes the input at all, and past COLLECT_LIMIT matches, so that
// its first pages are walked. The rows must be the same either way.

const COUNT = 60_000;
const T = Date.UTC(2026, 0, 1);
const INPUT = { label: "company", value: "Tyrell" };

// One signup in five works at Tyrell (12,000); two share each instant, so that ties are broken by id.
const SEEDED: NewSignup[] = Array.from({ length: COUNT }, (_, i) => ({
  email: `person${i}@example.com`,
  verified: i % 3 !== 0,
  referral: false,
  customInputs: JSON.stringify([{ label: "company", value: i % 5 === 2 ? "Tyrell" : "Acme" }]),
  createdAt: T + Math.floor(i / 2) * 1000,
}));
const INPUT_EMAILS = SEEDED.map((signup, order) => ({ signup, order }))
  .filter(({ order }) => order % 5 === 2)
  .sort((a, b) => b.signup.createdAt! - a.signup.createdAt! || b.order - a.order)
  .map(({ signup }) => signup.email);

let sqlite: TempDatabase;
let pg: AppDatabase;
const waitlists = new Map<AppDatabase, string>();

async function seed(db: AppDatabase): Promise<string> {
  const { id } = await createWaitlist({ name: "Deep", website: "https://deep.example" }, db);
  await writeTransaction(db, async () => {
    const bulk = startBulkInsert(id, db);
    for (let at = 0; at < SEEDED.length; at += 5000) await bulk.add(SEEDED.slice(at, at + 5000), T);
    await bulk.finish();
  });
  return id;
}

beforeAll(async () => {
  sqlite = tempDatabase();
  pg = await pgliteDatabase();
  for (const db of [sqlite.db, pg]) waitlists.set(db, await seed(db));
}, 180_000);
afterAll(async () => {
  sqlite.close();
  await pg.$engine.close();
});

it("shows the same rows deep into an input on both engines, collected on PostgreSQL", async () => {
  const pages = new Map<AppDatabase, string[]>();
  for (const db of [sqlite.db, pg]) {
    const scope = { waitlistId: waitlists.get(db)!, inputs: [INPUT] };
    const emails: string[] = [];
    for (const offset of [0, 9000, INPUT_EMAILS.length - 10]) emails.push(...(await listSignupRows({ scope, offset, limit: 25 }, db)).map((row) => row.email));
    pages.set(db, emails);
  }
  expect(pages.get(pg)).toEqual(pages.get(sqlite.db));
  expect(pages.get(pg)).toEqual([...INPUT_EMAILS.slice(0, 25), ...INPUT_EMAILS.slice(9000, 9025), ...INPUT_EMAILS.slice(-10)]);
  // The first page is walked to, the deep ones collected.
  const plan = await planAccess({ waitlistId: waitlists.get(pg)!, inputs: [INPUT] }, pg);
  expect([deepPageAccess(plan, plan.rows, 25), deepPageAccess(plan, plan.rows, 9025)]).toEqual(["order", "input0"]);
}, 60_000);

it("counts a small scope of a large list through its ids on both engines, with the same answers", async () => {
  // Tyrell's verified people whose address holds "person12": 1,111 addresses hold it, the search's own reach.
  const filter = { inputs: [INPUT], emailContains: "person12", verified: true };
  const expected = SEEDED.map((signup, order) => ({ signup, order }))
    .filter(({ signup, order }) => order % 5 === 2 && signup.verified && signup.email.includes("person12"))
    .sort((a, b) => b.signup.createdAt! - a.signup.createdAt! || b.order - a.order)
    .map(({ signup }) => signup.email);
  const answers = new Map<AppDatabase, unknown>();
  for (const db of [sqlite.db, pg]) {
    const scope = { waitlistId: waitlists.get(db)!, ...filter };
    const plan = await aggregatePlan(scope, db);
    expect(plan).toMatchObject({ count: "ids", capped: "ids", bound: expected.length });
    // Taken from the ids of the scope without its verified filter, which the counts read anyway.
    expect((await aggregatePlan({ ...scope, verified: undefined }, db)).ids!.length).toBeGreaterThan(expected.length);
    const rows = (await listSignupRows({ scope, offset: 0, limit: 1000 }, db)).map((row) => row.email);
    expect(rows).toEqual(expected);
    const counts = await countSignups(scope, db);
    expect(counts).toMatchObject({ total: expected.length, exact: true });
    answers.set(db, [rows, counts, await signupsPerDay(scope, new Date(T), db), await inputFacets(scope, { labels: 8, values: 5 }, db)]);
  }
  expect(answers.get(pg)).toEqual(answers.get(sqlite.db));
}, 60_000);
