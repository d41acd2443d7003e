import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DAY_MS } from "@/lib/core/time";
import { signupPosition } from "@/lib/domain/joining/position";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { insertSignups } from "@/tests/support/insert-signups";
import { queryPlan, statementsPreparedBy } from "@/tests/support/query-plans";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

describe("signupPosition", () => {
  let temp: TempDatabase;
  let waitlistId: string;
  beforeEach(async () => {
    temp = tempDatabase();
    waitlistId = (await createWaitlist({ name: "Acme Beta", website: "https://acme.example" }, temp.db)).id;
  });
  afterEach(() => temp.close());

  it("is 1 + the waiting signups before it (by created_at, then id) over several days, null unless waiting", async () => {
    const start = Date.UTC(2026, 0, 1, 12);
    // Three days, several signups sharing one instant, some not waiting, on two waitlists.
    const statuses = ["waiting", "invited", "waiting", "rejected", "completed", "waiting"] as const;
    const rows = Array.from({ length: 60 }, (_, index) => ({
      email: `p${index}@example.com`,
      verified: index % 3 === 0,
      referral: index % 5 === 0,
      customInputs: "[]",
      createdAt: start + Math.floor(index / 4) * (DAY_MS / 7),
      status: statuses[index % statuses.length],
    }));
    // Inserted out of order: ids do not follow created_at.
    insertSignups(waitlistId, [...rows].reverse(), temp.db);
    const other = (await createWaitlist({ name: "Other", website: "https://other.example" }, temp.db)).id;
    insertSignups(other, rows.slice(0, 20), temp.db);
    const all = temp.db.$client
      .prepare("SELECT id, status, created_at AS createdAt FROM signups WHERE waitlist_id = ? ORDER BY created_at, id")
      .all(waitlistId) as { id: number; status: string; createdAt: number }[];
    let waitingBefore = 0;
    for (const signup of all) {
      if (signup.status === "waiting") {
        expect(await signupPosition(waitlistId, signup.id, temp.db), `signup ${signup.id}`).toBe(++waitingBefore);
      } else {
        expect(await signupPosition(waitlistId, signup.id, temp.db)).toBeNull();
      }
    }
    expect(waitingBefore).toBe(30);
    expect(await signupPosition(other, all[0]!.id, temp.db)).toBeNull();
  });

  it("reads indexes only, from the signup's own position in them", async () => {
    insertSignups(waitlistId, [{ email: "a@example.com", verified: false, referral: false, customInputs: "[]" }], temp.db);
    const id = (temp.db.$client.prepare("SELECT id FROM signups").get() as { id: number }).id;
    const plans = (await statementsPreparedBy(temp.db, () => signupPosition(waitlistId, id, temp.db))).map((text) => queryPlan(temp.db, text));
    expect(plans.join(" ")).toMatch(/USING COVERING INDEX signups_waitlist_order_idx \(waitlist_id=\? AND \(created_at,rowid\)>\(\?,\?\) AND created_at<\?\)/);
    expect(plans.join(" ")).toMatch(/USING COVERING INDEX signups_changed_status_idx \(waitlist_id=\? AND status=\? AND created_at>\? AND \(created_at,rowid\)<\(\?,\?\)\)/);
    expect(plans.join(" ")).not.toMatch(/SCAN signups/);
  });
});
