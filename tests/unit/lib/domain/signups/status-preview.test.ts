import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listAudit } from "@/lib/domain/audit/log";
import { previewStatusAction } from "@/lib/domain/signups/status-preview";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { insertSignups } from "@/tests/support/insert-signups";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

// The confirmation page's numbers: what an action would change, counted from signup_counts, and
// that it agrees with what the action then does.

const START = Date.UTC(2026, 9, 1);
let temp: TempDatabase;
let waitlistId: string;
const idOf = (email: string) => (temp.db.$client.prepare("SELECT id FROM signups WHERE email = ?").get(email) as { id: number }).id;

beforeEach(async () => {
  temp = tempDatabase();
  waitlistId = (await createWaitlist({ name: "Preview", website: "https://preview.example" }, temp.db)).id;
  insertSignups(
    waitlistId,
    Array.from({ length: 30 }, (_, index) => ({ email: `p${index}@example.com`, verified: index % 3 === 0, referral: false, customInputs: "[]", createdAt: START + index * 60_000 })),
    temp.db,
  );
  await applyStatusAction("cli", { action: "invite", selection: { waitlistId, emails: ["p0@example.com", "p1@example.com"] } }, temp.db);
  await applyStatusAction("cli", { action: "reject", selection: { waitlistId, emails: ["p2@example.com"] } }, temp.db);
});
afterEach(() => temp.close());

describe("previewStatusAction", () => {
  it("a filter: matches, changes, the rest by state and the first addresses, oldest first; and changes nothing", async () => {
    const audits = (await listAudit({ limit: 100 }, temp.db)).length;
    const preview = await previewStatusAction("invite", { scope: { waitlistId }, limit: -1 }, temp.db);
    expect(preview).toEqual({
      named: 30,
      exact: true,
      changes: 27,
      unchanged: [
        { status: "invited", count: 2 },
        { status: "rejected", count: 1 },
      ],
      missing: 0,
      first: Array.from({ length: 10 }, (_, index) => ({ id: idOf(`p${index + 3}@example.com`), email: `p${index + 3}@example.com` })),
    });
    expect(await listAudit({ limit: 100 }, temp.db)).toHaveLength(audits);
  });

  it("the next N: at most N change, the waiting past them are left as they are; the action then changes exactly those", async () => {
    const preview = await previewStatusAction("invite", { scope: { waitlistId, verified: true }, limit: 4 }, temp.db);
    expect(preview).toMatchObject({ named: 10, changes: 4, unchanged: [{ status: "waiting", count: 5 }, { status: "invited", count: 1 }] });
    expect(preview.first.map((signup) => signup.email)).toEqual(["p3@example.com", "p6@example.com", "p9@example.com", "p12@example.com"]);
    const outcome = await applyStatusAction("cli", { action: "invite", selection: { scope: { waitlistId, verified: true }, limit: 4 }, withSignups: true }, temp.db);
    expect(outcome.signups.map((signup) => signup.email)).toEqual(preview.first.map((signup) => signup.email));
  });

  it("a status filter that leaves out the action's state changes nothing", async () => {
    expect(await previewStatusAction("invite", { scope: { waitlistId, status: ["invited"] }, limit: -1 }, temp.db)).toMatchObject({ named: 2, changes: 0, first: [] });
  });

  it("selected rows: those in the action's state change; others by state; ids no longer on the list are counted as missing", async () => {
    const ids = ["p0@example.com", "p2@example.com", "p5@example.com"].map(idOf);
    const preview = await previewStatusAction("withdraw", { waitlistId, ids: [...ids, 987_654] }, temp.db);
    expect(preview).toEqual({
      named: 3,
      exact: true,
      changes: 1,
      unchanged: [
        { status: "waiting", count: 1 },
        { status: "rejected", count: 1 },
      ],
      missing: 1,
      first: [{ id: ids[0], email: "p0@example.com" }],
    });
  });
});
