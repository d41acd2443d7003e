import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { SEARCH_COUNT_CAP } from "@/lib/domain/signups/access";
import { countSignups } from "@/lib/domain/signups/counts";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { insertSignups } from "@/tests/support/insert-signups";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

// A list large enough for the planner to probe the trigram index (more than 50,000 signups), of which
// one more than the cap contain "zana".
const LIST = 60_000;

let temp: TempDatabase;
let waitlistId: string;

beforeAll(async () => {
  temp = tempDatabase();
  waitlistId = (await createWaitlist({ name: "Searched", website: "https://e.com" }, temp.db)).id;
  const emails = Array.from({ length: LIST }, (_, index) => (index <= SEARCH_COUNT_CAP ? `zana${index}@example.com` : `other${index}@example.com`));
  insertSignups(waitlistId, emails.map((email, index) => ({ email, verified: false, referral: false, customInputs: "[]", createdAt: Date.UTC(2026, 9, 1) + index })), temp.db);
});
afterAll(() => temp.close());
afterEach(() => vi.useRealTimers());

describe("a search over the cap", () => {
  it("stays '10,000+' for a minute as signups are written, then the next write has it probed again", async () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 1), toFake: ["Date"] });
    const scope = { waitlistId, emailContains: "zana" };
    expect(await countSignups(scope, temp.db)).toMatchObject({ total: SEARCH_COUNT_CAP, exact: false });
    // Two of them go: SEARCH_COUNT_CAP - 1 remain. Within the minute the verdict stands (a lower bound, off by the few erased).
    temp.db.$client.prepare("DELETE FROM signups WHERE email IN ('zana0@example.com', 'zana1@example.com')").run();
    vi.setSystemTime(Date.UTC(2026, 10, 1, 0, 0, 59));
    expect(await countSignups(scope, temp.db)).toMatchObject({ total: SEARCH_COUNT_CAP, exact: false });
    // A minute on, the next write (a live list) has it probed again.
    vi.setSystemTime(Date.UTC(2026, 10, 1, 0, 1, 1));
    insertSignups(waitlistId, [{ email: "late@example.com", verified: false, referral: false, customInputs: "[]" }], temp.db);
    expect(await countSignups(scope, temp.db)).toMatchObject({ total: SEARCH_COUNT_CAP - 1, exact: true });
  });
});
