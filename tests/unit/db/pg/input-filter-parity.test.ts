import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppDatabase } from "@/db/client";
import { countSignups, signupsPerDay } from "@/lib/domain/signups/counts";
import { inputFacets } from "@/lib/domain/signups/facets";
import type { SignupScope } from "@/lib/domain/signups/filter";
import { listSignupRows, signupJsonPage, signupTextPage } from "@/lib/domain/signups/queries";
import { scopeParams, scopeWhere, shapeOf } from "@/lib/domain/signups/scope-sql";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { preparedSql } from "@/lib/store/statements";
import { pgliteDatabase } from "@/tests/support/pglite";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

// A custom-input filter is a test of each signup walked (scope-sql.ts's hasInput), which PostgreSQL
// would otherwise turn into a join planned from a far too small estimate (the dialect's testedPerRow).
// The spelling must not change which rows a view shows: the same list on SQLite and on PostgreSQL,
// and the rows a plain reading of the signups' inputs selects.

const T = Date.UTC(2026, 0, 1);
const ROLES = ["Engineer", "Designer", "Founder"];
const COMPANIES = ["Acme", "Globex"];

interface Seeded {
  email: string;
  verified: boolean;
  referral: boolean;
  role?: string;
  company?: string;
  createdAt: number;
}

// Three signups share each instant, so that ties are broken by id; some have no inputs, or only one.
const SEEDED: Seeded[] = Array.from({ length: 150 }, (_, i) => ({
  email: `person${i}@example.com`,
  verified: i % 3 !== 0,
  referral: i % 4 === 0,
  role: i % 5 === 4 ? undefined : ROLES[i % 3],
  company: i % 7 === 6 ? undefined : COMPANIES[i % 2],
  createdAt: T + Math.floor(i / 3) * 3_600_000,
}));

function customInputs(signup: Seeded): string {
  return JSON.stringify([
    ...(signup.company === undefined ? [] : [{ label: "company", value: signup.company }]),
    ...(signup.role === undefined ? [] : [{ label: "role", value: signup.role }]),
  ]);
}

async function seed(db: AppDatabase): Promise<string> {
  const { id } = await createWaitlist({ name: "Inputs", website: "https://inputs.example" }, db);
  const insert = db.$engine.prepare("INSERT INTO signups (waitlist_id, email, verified, referral, custom_inputs, created_at) VALUES (?, ?, ?, ?, ?, ?)");
  for (const signup of SEEDED) await insert.run([id, signup.email, signup.verified ? 1 : 0, signup.referral ? 1 : 0, customInputs(signup), signup.createdAt]);
  return id;
}

/** The emails of the seeded signups with these inputs, newest first (ties: the later insert, the higher id, first). */
function expectedEmails(filter: { role?: string; company?: string; verified?: boolean }): string[] {
  return SEEDED.map((signup, order) => ({ signup, order }))
    .filter(({ signup }) => (filter.role === undefined || signup.role === filter.role) && (filter.company === undefined || signup.company === filter.company) && (filter.verified === undefined || signup.verified === filter.verified))
    .sort((a, b) => b.signup.createdAt - a.signup.createdAt || b.order - a.order)
    .map(({ signup }) => signup.email);
}

let sqlite: TempDatabase;
let pg: AppDatabase;
const waitlists = new Map<AppDatabase, string>();

beforeAll(async () => {
  sqlite = tempDatabase();
  pg = await pgliteDatabase();
  for (const db of [sqlite.db, pg]) waitlists.set(db, await seed(db));
}, 60_000);
afterAll(async () => {
  sqlite.close();
  await pg.$engine.close();
});

/** The same read on both engines, each on its own waitlist (the ids differ): equal results. */
async function same<T>(filter: Omit<SignupScope, "waitlistId">, read: (scope: SignupScope, db: AppDatabase) => Promise<T>): Promise<T> {
  const onSqlite = await read({ waitlistId: waitlists.get(sqlite.db)!, ...filter }, sqlite.db);
  const onPg = await read({ waitlistId: waitlists.get(pg)!, ...filter }, pg);
  expect(onPg).toEqual(onSqlite);
  return onSqlite;
}

const withoutIds = <Row extends { id: number }>(rows: Row[]) => rows.map(({ id: _id, ...rest }) => rest);

describe("custom-input filters on SQLite and PostgreSQL", () => {
  const role = { inputs: [{ label: "role", value: "Engineer" }] };
  const both = { inputs: [{ label: "role", value: "Engineer" }, { label: "company", value: "Acme" }] };

  it("show the rows that have the inputs, newest first, page by page", async () => {
    for (const [filter, expected] of [
      [role, expectedEmails({ role: "Engineer" })],
      [both, expectedEmails({ role: "Engineer", company: "Acme" })],
      [{ ...role, verified: true }, expectedEmails({ role: "Engineer", verified: true })],
    ] as const) {
      const pages = [];
      for (let offset = 0; offset < expected.length + 10; offset += 10) {
        pages.push(...(await same(filter, async (scope, db) => withoutIds(await listSignupRows({ scope, offset, limit: 10 }, db)))));
      }
      expect(pages.map((row) => row.email)).toEqual(expected);
    }
  });

  it("read the same pages in creation order, counts, chart and facets", async () => {
    for (const filter of [role, both, { ...both, referral: false, createdSince: new Date(T + 5 * 3_600_000) }, { ...role, emailContains: "son1" }]) {
      const items = await same(filter, async (scope, db) => (await signupJsonPage({ scope, limit: 200, fields: ["email", "custom_inputs", "created_at"] }, db)).items);
      expect(items.length).toBeGreaterThan(0);
      await same(filter, async (scope, db) => (await signupTextPage(scope, undefined, 200, db)).rows.map(([, , ...rest]) => rest));
      await same(filter, (scope, db) => countSignups(scope, db));
      await same(filter, (scope, db) => signupsPerDay(scope, new Date(T), db));
      await same(filter, (scope, db) => inputFacets(scope, {}, db));
    }
  });

  it("are tested on each signup walked on PostgreSQL, not joined", async () => {
    const scope = { waitlistId: waitlists.get(pg)!, ...both };
    const explain = preparedSql<{ "QUERY PLAN": string }>(pg, "test.explainInputWalk", (d) => sql`EXPLAIN SELECT id FROM signups WHERE ${scopeWhere(shapeOf(scope, "order"), d)} ORDER BY created_at DESC, id DESC LIMIT 25`);
    const plan = (await explain.all(scopeParams(scope))).map((row) => row["QUERY PLAN"]).join("\n");
    expect(plan).toContain("SubPlan");
    expect(plan).not.toMatch(/Join/);
  });
});
