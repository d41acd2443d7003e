import { afterAll, beforeAll, expect, it } from "vitest";
import type { AppDatabase } from "@/db/client";
import { deepPageAccess, planAccess } from "@/lib/domain/signups/access";
import { startBulkInsert } from "@/lib/domain/signups/bulk-insert";
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
