import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countSignups, countSignupsSince, signupsPerDay } from "@/lib/domain/signups/counts";
import { type SignupScope } from "@/lib/domain/signups/filter";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { insertSignups } from "@/tests/support/insert-signups";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

// Without a search, the counts come from signup_counts (written by the bulk writer, kept by triggers
// on update and delete); with a search that matches every email ("@"), from a scan of signups. The
// two must always agree.

const DAY = 86_400_000;
const BASE = Date.UTC(2026, 2, 1);
const FILTERS = [undefined, true, false] as const;

let temp: TempDatabase;
let main: string;
let other: string;

function scopes(waitlistId: string): SignupScope[] {
  return FILTERS.flatMap((verified) => FILTERS.map((referral) => ({ waitlistId, verified, referral })));
}

function expectTablesAgreeWithScans(waitlistId: string) {
  const windows = [new Date(0), new Date(BASE + 3 * DAY), new Date(BASE + 3 * DAY + 5 * 3_600_000), new Date(BASE + 40 * DAY)];
  for (const scope of scopes(waitlistId)) {
    const scanned = { ...scope, search: "@" };
    expect(countSignups(scope, temp.db)).toEqual(countSignups(scanned, temp.db));
    for (const since of windows) {
      expect(countSignupsSince(scope, since, temp.db)).toBe(countSignupsSince(scanned, since, temp.db));
      expect(signupsPerDay(scope, since, temp.db)).toEqual(signupsPerDay(scanned, since, temp.db));
    }
  }
}

beforeAll(() => {
  temp = tempDatabase();
  main = createWaitlist({ name: "Main", website: "https://e.com" }, temp.db).id;
  other = createWaitlist({ name: "Other", website: "https://e.com" }, temp.db).id;
  // Several signups per day at different hours, so partial days matter.
  const signups = Array.from({ length: 300 }, (_, index) => ({ email: `user${index}@example.com`, verified: index % 3 !== 0, referral: index % 4 === 0, customInputs: "[]", createdAt: BASE + index * 7_200_000 }));
  insertSignups(main, signups, temp.db);
  insertSignups(other, signups.filter((_, index) => index % 2), temp.db);
  expect(insertSignups(main, [{ email: "USER1@example.com", verified: true, referral: true, customInputs: "[]" }], temp.db)).toBe(0); // a duplicate: skipped, not counted
});

afterAll(() => temp.close());

describe("signup counts written in bulk and kept by triggers", () => {
  it("agree with a scan after inserts, for every filter and window", () => {
    expect(countSignups({ waitlistId: main }, temp.db).total).toBe(300);
    expect(countSignups({ waitlistId: other }, temp.db).total).toBe(150);
    expectTablesAgreeWithScans(main);
    expectTablesAgreeWithScans(other);
  });

  it("follow updates of the flags, the date and the waitlist", () => {
    const sqlite = temp.db.$client;
    sqlite.prepare("UPDATE signups SET verified = NOT verified WHERE waitlist_id = ? AND id % 5 = 0").run(main);
    sqlite.prepare("UPDATE signups SET created_at = created_at + 2 * ? WHERE waitlist_id = ? AND id % 7 = 0").run(DAY, main);
    sqlite.prepare("UPDATE signups SET waitlist_id = ? WHERE waitlist_id = ? AND email IN ('user28@example.com', 'user100@example.com')").run(other, main);
    expectTablesAgreeWithScans(main);
    expectTablesAgreeWithScans(other);
  });

  it("follow deletes, including a waitlist's cascade", () => {
    const sqlite = temp.db.$client;
    sqlite.prepare("DELETE FROM signups WHERE waitlist_id = ? AND id % 11 = 0").run(main);
    expectTablesAgreeWithScans(main);
    sqlite.prepare("DELETE FROM waitlists WHERE id = ?").run(other);
    expect(countSignups({ waitlistId: other }, temp.db).total).toBe(0);
    expect(signupsPerDay({ waitlistId: other }, new Date(0), temp.db)).toEqual([]);
    expectTablesAgreeWithScans(main);
  });
});
