import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findSignupsByEmail } from "@/lib/domain/signups/find";
import { mergeSearchStep } from "@/lib/domain/signups/search-merge";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

describe("mergeSearchStep", () => {
  let temp: TempDatabase;
  let waitlistId: string;
  const segments = () => temp.db.$client.prepare("SELECT count(DISTINCT segid) FROM signup_email_search_idx").pluck().get() as number;

  beforeEach(() => {
    temp = tempDatabase();
    waitlistId = createWaitlist({ name: "Searched", website: "https://example.com" }, temp.db).id;
    // One signup a transaction, as joins commit them: each writes a segment of the index of its own.
    const insert = temp.db.$client.prepare("INSERT INTO signups (waitlist_id, email, verified, referral, custom_inputs, created_at) VALUES (?, ?, 0, 0, '[]', ?)");
    for (let index = 0; index < 60; index++) insert.run(waitlistId, `person${index}@merged.example`, index);
  });
  afterEach(() => temp.close());

  it("merges the segments a step at a time until there is nothing to merge, and every address is still found", () => {
    const before = segments();
    expect(before).toBeGreaterThanOrEqual(4);
    let steps = 0;
    while (mergeSearchStep(64, temp.db)) steps++;
    expect(steps).toBeGreaterThan(0);
    expect(segments()).toBeLessThan(before);
    expect(segments()).toBeLessThan(4);
    // Nothing left: a step changes nothing.
    expect(mergeSearchStep(64, temp.db)).toBe(false);
    // The app's search, through the index.
    expect(findSignupsByEmail({ contains: "merged.example", limit: 100 }, temp.db)).toHaveLength(60);
    expect(findSignupsByEmail({ contains: "person42@", limit: 100 }, temp.db).map((found) => found.email)).toEqual(["person42@merged.example"]);
    expect(() => temp.db.$client.prepare("INSERT INTO signup_email_search (signup_email_search, rank) VALUES ('integrity-check', 1)").run()).not.toThrow();
  });
});
