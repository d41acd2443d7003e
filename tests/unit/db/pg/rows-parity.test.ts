import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { AppDatabase } from "@/db/client";
import { appendEventPerSignup, redactSignupEvents } from "@/lib/domain/events";
import { countJoinPageView, flushJoinPageViews } from "@/lib/domain/funnel/page-views";
import { forgetAnswersNaming } from "@/lib/domain/idempotency";
import { countSignups, signupsPerDay } from "@/lib/domain/signups/counts";
import { findSignupsByEmail } from "@/lib/domain/signups/find";
import { signupJsonPage, signupTextPage } from "@/lib/domain/signups/queries";
import { SIGNUP_FIELDS } from "@/lib/domain/signups/response";
import { pgliteDatabase } from "@/tests/support/pglite";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

// The domain's own functions over the same rows on SQLite and on PostgreSQL (PGlite through the
// PostgreSQL engine, dialectOf giving pgDialect): the results must be equal, JSON texts byte for
// byte. A smoke test of the statements that use the dialect's fragments; lib/store's
// dialect-parity.test.ts tests the fragments one by one.

let sqlite: TempDatabase;
let pg: AppDatabase;
const engines = () => [sqlite.db, pg];

beforeAll(async () => {
  sqlite = tempDatabase();
  pg = await pgliteDatabase();
  for (const db of engines()) {
    await db.run(sql`INSERT INTO waitlists (id, name, website, created_at) VALUES ('w1', 'One', 'https://one.example', 0)`);
    for (let i = 1; i <= 12; i++) {
      const email = [`Ann${i}@Example.com`, `bob${i}@exa_mple.io`, `zoë${i}@straße.de`, `q"\\${i}@x.io`][i % 4]!;
      await db.run(sql`INSERT INTO signups (id, waitlist_id, email, verified, referral, custom_inputs, created_at, status, status_changed_at) VALUES (${i}, 'w1', ${email}, ${i % 2}, ${(i >> 1) % 2}, ${JSON.stringify([{ label: "é", value: `v${i}` }])}, ${Date.UTC(2026, 0, 1 + (i % 3)) - (i === 5 ? 8e11 : 0)}, ${i % 3 === 0 ? "invited" : "waiting"}, ${i % 3 === 0 ? Date.UTC(2026, 1, 1) : null})`);
    }
  }
}, 60_000);
afterAll(async () => {
  sqlite.close();
  await pg.$engine.close();
});

async function same<T>(read: (db: AppDatabase) => Promise<T>): Promise<T> {
  const [a, b] = [await read(sqlite.db), await read(pg)];
  expect(b).toEqual(a);
  return a;
}

it("pages of JSON and text alike", async () => {
  const page = await same((db) => signupJsonPage({ scope: { waitlistId: "w1" }, limit: 50, fields: SIGNUP_FIELDS }, db));
  expect(page.items).toHaveLength(12);
  await same((db) => signupTextPage({ waitlistId: "w1" }, undefined, 50, db));
  await same((db) => signupJsonPage({ scope: { waitlistId: "w1", emailContains: "EXA" }, limit: 50 }, db));
});

it("counts and days alike", async () => {
  await same((db) => countSignups({ waitlistId: "w1" }, db));
  await same((db) => countSignups({ waitlistId: "w1", emailContains: "xa" }, db));
  await same((db) => signupsPerDay({ waitlistId: "w1" }, new Date(0), db));
  await same((db) => signupsPerDay({ waitlistId: "w1", emailContains: "ann" }, new Date(0), db));
  // A whole address: the index looks up its part before the "@" only, and the whole text is tested on what it finds.
  expect(await same((db) => countSignups({ waitlistId: "w1", emailContains: "BOB1@exa_mple.io" }, db))).toMatchObject({ total: 1 });
  expect(await same((db) => countSignups({ waitlistId: "w1", emailContains: "ann12@EXAMPLE.com" }, db))).toMatchObject({ total: 1 });
  expect(await same((db) => countSignups({ waitlistId: "w1", emailContains: "ob5@exaxmple.io" }, db))).toMatchObject({ total: 0 });
});

it("finds addresses alike", async () => {
  await same((db) => findSignupsByEmail({ contains: "exa", limit: 50 }, db));
  await same((db) => findSignupsByEmail({ contains: "_mp", limit: 50 }, db));
  expect((await same((db) => findSignupsByEmail({ contains: "ann8@EXAMPLE.com", limit: 50 }, db))).map((found) => found.email)).toEqual(["Ann8@Example.com"]);
  await same((db) => findSignupsByEmail({ email: "ANN4@example.com", limit: 50 }, db));
});

it("appends and redacts events alike", async () => {
  await same((db) => appendEventPerSignup("signup.invited", "w1", JSON.stringify([1, 2, 3, 999]), { note: "x" }, db, Date.UTC(2026, 2, 1)));
  await same((db) => redactSignupEvents([2], db));
  await same((db) => db.all(sql`SELECT signup_id, body FROM events ORDER BY id`));
  await same((db) => forgetAnswersNaming("Ann4@example.com", db));
});

it("counts page views alike", async () => {
  for (const db of engines()) {
    countJoinPageView("w1", Date.UTC(2026, 0, 1));
    countJoinPageView("w1", Date.UTC(2026, 0, 1));
    await flushJoinPageViews(db);
    countJoinPageView("w1", Date.UTC(2026, 0, 1));
    await flushJoinPageViews(db);
  }
  await same((db) => db.all(sql`SELECT waitlist_id, day, count FROM join_page_views`));
});

it("facets alike", async () => {
  const { inputFacets, inputFacetValues } = await import("@/lib/domain/signups/facets");
  const { flagFacet } = await import("@/lib/domain/fraud/facet");
  const { milestoneFacet } = await import("@/lib/domain/milestones/facet");
  const { sourceFacets } = await import("@/lib/domain/funnel/facets");
  const { recordFlags, pendingReview, pendingFlagCounts } = await import("@/lib/domain/fraud/flags");
  for (const db of engines()) {
    await recordFlags(1, "w1", ["disposable", "burst"], 5, db);
    await recordFlags(4, "w1", ["burst"], 6, db);
  }
  await same((db) => pendingReview("w1", 50, db));
  await same((db) => pendingFlagCounts("w1", db));
  await same((db) => inputFacets({ waitlistId: "w1" }, {}, db));
  await same((db) => inputFacets({ waitlistId: "w1", status: ["invited"] }, {}, db));
  await same((db) => inputFacetValues({ waitlistId: "w1" }, "é", "V1", 10, db));
  await same((db) => flagFacet({ waitlistId: "w1" }, db));
  await same((db) => milestoneFacet({ waitlistId: "w1" }, db));
  await same((db) => sourceFacets({ waitlistId: "w1" }, 10, db));
});

it("input slices alike", async () => {
  const { slicePerDay, sliceExceeds, sliceCells } = await import("@/lib/domain/signups/input-slice");
  const slice = { waitlistId: "w1", label: "é", value: "v4", since: -8.64e15, until: 8.64e15 };
  await same((db) => sliceCells(slice, db));
  await same((db) => slicePerDay({ waitlistId: "w1", inputs: [{ label: "é", value: "v4" }] }, slice, db));
  await same((db) => sliceExceeds({ waitlistId: "w1", status: ["waiting"] }, slice, 0, db));
});
