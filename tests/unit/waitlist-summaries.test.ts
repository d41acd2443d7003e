import { describe, expect, it } from "vitest";
import { memoizeWhileUnchanged } from "@/lib/sqlite/memoize";
import { countSignups } from "@/lib/domain/signups/counts";
import { cachedCountSignups } from "@/lib/domain/signups/cached-stats";
import { createWaitlist, listWaitlistSummaries, signupTotals } from "@/lib/domain/waitlists/queries";
import { insertSignups } from "../insert-signups";
import { tempDatabase } from "./temp-db";

const { db } = tempDatabase();

function addSignup(waitlistId: string, email: string, verified: boolean, referral: boolean, createdAt: number) {
  insertSignups(waitlistId, [{ email, verified, referral, customInputs: "[]", createdAt }], db);
}

describe("listWaitlistSummaries", () => {
  const alpha = createWaitlist({ name: "Alpha", website: "https://a.example" }, db);
  const beta = createWaitlist({ name: "beta_list", website: "https://b.example" }, db);
  const empty = createWaitlist({ name: "Empty", website: "https://e.example" }, db);
  addSignup(alpha.id, "a1@x.com", true, false, 1000);
  addSignup(alpha.id, "a2@x.com", true, true, 3000);
  addSignup(alpha.id, "a3@x.com", false, false, 2000);
  addSignup(beta.id, "b1@x.com", false, true, 5000);

  it("aggregates every list, including lists without signups", () => {
    const byName = Object.fromEntries(listWaitlistSummaries({}, db).map((row) => [row.name, row]));
    expect(byName.Alpha).toMatchObject({ id: alpha.id, total: 3, verified: 2, referral: 1, newestSignupAt: new Date(3000) });
    expect(byName.beta_list).toMatchObject({ total: 1, verified: 0, referral: 1, newestSignupAt: new Date(5000) });
    expect(byName.Empty).toMatchObject({ id: empty.id, total: 0, verified: 0, referral: 0, newestSignupAt: null });
  });

  it("sorts by whitelisted columns; lists without signups sort last", () => {
    expect(listWaitlistSummaries({ sort: "name" }, db).map((row) => row.name)).toEqual(["Alpha", "beta_list", "Empty"]);
    expect(listWaitlistSummaries({ sort: "total", direction: "desc" }, db).map((row) => row.name)).toEqual(["Alpha", "beta_list", "Empty"]);
    expect(listWaitlistSummaries({ sort: "verified", direction: "asc" }, db).map((row) => row.name)).toEqual(["beta_list", "Alpha", "Empty"]);
    expect(listWaitlistSummaries({ sort: "newest", direction: "desc" }, db).map((row) => row.name)).toEqual(["beta_list", "Alpha", "Empty"]);
  });

  it("searches names case-insensitively, with LIKE wildcards taken literally", () => {
    expect(listWaitlistSummaries({ search: "ALP" }, db).map((row) => row.name)).toEqual(["Alpha"]);
    expect(listWaitlistSummaries({ search: "_" }, db).map((row) => row.name)).toEqual(["beta_list"]);
    expect(listWaitlistSummaries({ search: "%" }, db)).toEqual([]);
  });

  it("signupTotals gives every list's total from one grouped count; lists without signups are absent", () => {
    const totals = signupTotals(db);
    expect(totals.get(alpha.id)).toBe(countSignups({ waitlistId: alpha.id }, db).total);
    expect(totals.get(beta.id)).toBe(1);
    expect(totals.has(empty.id)).toBe(false);
  });

  it("cached counts equal fresh counts and follow writes", () => {
    const scope = { waitlistId: alpha.id, verified: true };
    expect(cachedCountSignups(scope, db)).toEqual(countSignups(scope, db));
    addSignup(alpha.id, "a4@x.com", true, false, 4000);
    expect(cachedCountSignups(scope, db).total).toBe(3);
    expect(cachedCountSignups(scope, db)).toEqual(countSignups(scope, db));
  });

  it("memoizes until the database changes or a minute passes", () => {
    let calls = 0;
    const compute = () => ++calls;
    expect(memoizeWhileUnchanged(db, "k", compute, 0)).toBe(1);
    expect(memoizeWhileUnchanged(db, "k", compute, 1000)).toBe(1);
    expect(memoizeWhileUnchanged(db, "k", compute, 61_000)).toBe(2);
  });
});
