import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { insertSignups } from "@/tests/support/insert-signups";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

let temp: TempDatabase;
let waitlistId: string;

beforeAll(async () => {
  temp = tempDatabase();
  waitlistId = (await createWaitlist({ name: "Pool", website: "https://e.com" }, temp.db)).id;
  insertSignups(
    waitlistId,
    Array.from({ length: 6 }, (_, index) => ({ email: `p${index}@example.com`, verified: index % 2 === 0, referral: false, customInputs: "[]", createdAt: Date.UTC(2026, 0, 1 + index) })),
    temp.db,
  );
});
afterAll(() => temp.close());

describe("the dashboard's reader threads", () => {
  it("answer named reads from their own read-only connections, Dates and errors included", () => {
    const output = execFileSync(process.execPath, ["--import", "tsx", "tests/unit/fixtures/read-pool-child.ts", waitlistId], {
      env: { ...process.env, DATABASE_PATH: temp.path },
      encoding: "utf8",
    });
    const answer = JSON.parse(output) as { counts: { total: number; exact: boolean }; rows: { email: string; createdAt: string }[]; failure: string };
    expect(answer.counts).toMatchObject({ total: 3, exact: true });
    expect(answer.rows.map((row) => row.email)).toEqual(["p5@example.com", "p4@example.com"]);
    expect(answer.rows[0]!.createdAt).toBe("2026-01-06T00:00:00.000Z");
    expect(answer.failure).toBe("RangeError: findSignupsByEmail needs an email, or a text of at least 3 characters");
  });
});
