import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listAudit } from "@/lib/domain/audit/log";
import { countSignups, signupsPerDay } from "@/lib/domain/signups/counts";
import { answerOnce } from "@/lib/domain/idempotency";
import { eraseAddress } from "@/lib/domain/signups/erase";
import type { SignupScope } from "@/lib/domain/signups/filter";
import { listSignupRows } from "@/lib/domain/signups/queries";
import { SIGNUP_STATUSES, STATUS_ACTIONS, STATUS_ACTION_NAMES, type SignupStatus } from "@/lib/domain/signups/status";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { insertSignups } from "@/tests/support/insert-signups";
import { queryPlan, statementsPreparedBy } from "@/tests/support/query-plans";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

// Every transition of status.ts: one event per changed signup and one audit row, in the change's own
// transaction; a failing write leaves neither; counts, facets and charts stay exact in every status.

const DAY = 86_400_000;
const START = Date.UTC(2026, 9, 1);
let temp: TempDatabase;
let waitlistId: string;

const sqlite = () => temp.db.$client;
const eventCount = () => (sqlite().prepare("SELECT count(*) AS n FROM events").get() as { n: number }).n;
const auditCount = async () => (await listAudit({ limit: 1000 }, temp.db)).length;
const statusOf = (email: string) => (sqlite().prepare("SELECT status FROM signups WHERE email = ?").get(email) as { status: SignupStatus }).status;

beforeEach(async () => {
  temp = tempDatabase();
  waitlistId = (await createWaitlist({ name: "Drain", website: "https://drain.example" }, temp.db)).id;
  insertSignups(
    waitlistId,
    Array.from({ length: 40 }, (_, index) => ({
      email: `p${index}@example.com`,
      verified: index % 2 === 0,
      referral: index % 5 === 0,
      customInputs: JSON.stringify(index % 3 === 0 ? [{ label: "company", value: "Acme" }] : []),
      createdAt: START + index * (DAY / 4),
    })),
    temp.db,
  );
});
afterEach(() => temp.close());

/** The signup that has `status` first, by the shortest path of actions from waiting. */
const PATH_TO: Record<SignupStatus, (keyof typeof STATUS_ACTIONS)[]> = { waiting: [], invited: ["invite"], completed: ["invite", "complete"], rejected: ["reject"] };

describe("the state machine", () => {
  it.each(STATUS_ACTION_NAMES)("%s: one event per changed signup and one audit row, in one transaction", async (action) => {
    const { from, to, event } = STATUS_ACTIONS[action];
    const emails = ["p1@example.com", "p2@example.com", "p3@example.com"];
    for (const step of PATH_TO[from]) await applyStatusAction("cli", { action: step, selection: { waitlistId, emails } }, temp.db);
    const [events, audits] = [eventCount(), await auditCount()];
    const outcome = await applyStatusAction("cli", { action, selection: { waitlistId, emails: [...emails, "p4@example.com", "nobody@example.com"] }, withSignups: true }, temp.db);
    expect(outcome.changed).toBe(from === "waiting" ? 4 : 3);
    // p4 is waiting (unless the action applies to waiting signups), nobody is not on the list.
    expect(outcome.skipped).toBe(from === "waiting" ? 1 : 2);
    expect(outcome.signups.map((signup) => [signup.email, signup.status])).toEqual(
      (from === "waiting" ? [...emails, "p4@example.com"] : emails).map((email) => [email, to]),
    );
    expect(eventCount() - events).toBe(outcome.changed);
    expect(await auditCount() - audits).toBe(1);
    const rows = sqlite().prepare("SELECT type, signup_id, payload FROM events ORDER BY id DESC LIMIT ?").all(outcome.changed) as { type: string; payload: string }[];
    for (const row of rows) {
      expect(row.type).toBe(event);
      expect(JSON.parse(row.payload)).toEqual({ from, to });
    }
    expect((await listAudit({ limit: 1 }, temp.db))[0]).toMatchObject({ action: `signups.${action}`, target: waitlistId });
  });

  it("refuses any other transition, naming both states, and writes nothing", async () => {
    await applyStatusAction("cli", { action: "invite", selection: { waitlistId, emails: ["p1@example.com"] } }, temp.db);
    const [events, audits] = [eventCount(), await auditCount()];
    await expect(applyStatusAction("cli", { action: "restore", selection: { waitlistId, emails: ["p1@example.com"] } }, temp.db)).rejects.toThrow(
      "cannot restore a signup that is invited: only a rejected signup can become waiting",
    );
    await expect(applyStatusAction("cli", { action: "invite", selection: { waitlistId, emails: ["nobody@example.com"] } }, temp.db)).rejects.toThrow(/has none of the address/);
    expect([eventCount(), await auditCount()]).toEqual([events, audits]);
  });

  it("a failing write leaves no status change, no event and no audit row", async () => {
    // A trigger that fails the audit insert: the last write of the transaction.
    sqlite().exec("CREATE TEMP TRIGGER fail_audit BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'disk full'); END");
    await expect(applyStatusAction("cli", { action: "invite", selection: { scope: { waitlistId }, limit: 10 } }, temp.db)).rejects.toThrow("disk full");
    expect([eventCount(), await auditCount()]).toEqual([0, 0]);
    expect((await countSignups({ waitlistId, status: ["invited"] }, temp.db)).total).toBe(0);
    sqlite().exec("DROP TRIGGER fail_audit");
  });

  it("a dry run says who would change and changes nothing", async () => {
    const outcome = await applyStatusAction("cli", { action: "invite", selection: { scope: { waitlistId, verified: true }, limit: 3 }, dryRun: true, withSignups: true }, temp.db);
    expect(outcome.changed).toBe(3);
    expect(outcome.signups.map((signup) => signup.email)).toEqual(["p0@example.com", "p2@example.com", "p4@example.com"]);
    expect([eventCount(), await auditCount(), statusOf("p0@example.com")]).toEqual([0, 0, "waiting"]);
  });

  it("a filter selects the oldest signups in the state the action applies to, and the audit row says it in words", async () => {
    await applyStatusAction("cli", { action: "invite", selection: { scope: { waitlistId, verified: true }, limit: 2 }, withSignups: true }, temp.db);
    const next = await applyStatusAction("cli", { action: "invite", selection: { scope: { waitlistId, verified: true }, limit: 2 }, withSignups: true }, temp.db);
    expect(next.signups.map((signup) => signup.email)).toEqual(["p4@example.com", "p6@example.com"]);
    expect((await listAudit({ limit: 1 }, temp.db))[0]!.summary).toBe("invited 2 signups: the next 2 waiting in line of Verified");
    // A filter on other states only selects nothing.
    expect((await applyStatusAction("cli", { action: "invite", selection: { scope: { waitlistId, status: ["invited"] }, limit: 5 } }, temp.db)).changed).toBe(0);
  });
});

describe("selected rows (the dashboard's checkboxes)", () => {
  const idOf = (email: string) => (sqlite().prepare("SELECT id FROM signups WHERE email = ?").get(email) as { id: number }).id;

  it("changes the listed ids in the state the action applies to, skips the others, and says so in the audit row", async () => {
    await applyStatusAction("cli", { action: "reject", selection: { waitlistId, emails: ["p2@example.com"] } }, temp.db);
    const ids = ["p1@example.com", "p2@example.com", "p3@example.com"].map(idOf);
    const outcome = await applyStatusAction("cli", { action: "invite", selection: { waitlistId, ids: [...ids, 999_999] } }, temp.db);
    expect(outcome).toMatchObject({ changed: 2, skipped: 2 });
    expect(["p1@example.com", "p2@example.com", "p3@example.com"].map(statusOf)).toEqual(["invited", "rejected", "invited"]);
    expect((await listAudit({ limit: 1 }, temp.db))[0]!.summary).toBe("invited 2 signups of 4 selected signups (2 skipped)");
  });

  it("refuses ids of another waitlist as not found, and ids all in another state naming both states", async () => {
    const other = (await createWaitlist({ name: "Other", website: "https://other.example" }, temp.db)).id;
    await expect(applyStatusAction("cli", { action: "invite", selection: { waitlistId: other, ids: [idOf("p1@example.com")] } }, temp.db)).rejects.toThrow(`Waitlist ${other} has none of the signup selected.`);
    await expect(applyStatusAction("cli", { action: "withdraw", selection: { waitlistId, ids: [idOf("p1@example.com")] } }, temp.db)).rejects.toThrow(
      "cannot withdraw a signup that is waiting: only an invited signup can become waiting",
    );
    expect([eventCount(), await auditCount()]).toEqual([0, 0]);
  });

  it("a filter without a limit (-1) changes every match, and the audit row says every", async () => {
    expect((await applyStatusAction("cli", { action: "reject", selection: { scope: { waitlistId, verified: false }, limit: -1 } }, temp.db)).changed).toBe(20);
    expect((await listAudit({ limit: 1 }, temp.db))[0]!.summary).toBe("rejected 20 signups: every waiting signup of Not verified");
  });
});

describe("counts stay exact in every status", () => {
  const scopes: Omit<SignupScope, "waitlistId">[] = [
    {},
    { verified: true },
    { status: ["invited"] },
    { status: ["waiting", "rejected"], referral: false },
    { createdSince: new Date(START + DAY / 2 + 1), createdUntil: new Date(START + 6 * DAY + 7) },
    { inputs: [{ label: "company", value: "Acme" }] },
    { inputs: [{ label: "company", value: "Acme" }], status: ["invited", "completed"] },
    { inputs: [{ label: "company", value: "Acme" }], createdSince: new Date(START + DAY) },
    { emailContains: "p1" },
  ];

  it.each(scopes)("%j", async (filters) => {
    await applyStatusAction("cli", { action: "invite", selection: { scope: { waitlistId }, limit: 12 } }, temp.db);
    await applyStatusAction("cli", { action: "complete", selection: { waitlistId, emails: ["p0@example.com", "p3@example.com"] } }, temp.db);
    await applyStatusAction("cli", { action: "reject", selection: { scope: { waitlistId, referral: true }, limit: 3 } }, temp.db);
    await applyStatusAction("cli", { action: "withdraw", selection: { waitlistId, emails: ["p1@example.com"] } }, temp.db);
    const scope = { waitlistId, ...filters };
    const rows = async (status?: SignupStatus[]) =>
      (await listSignupRows({ scope: { ...scope, status }, offset: 0, limit: 1000 }, temp.db)).map((row) => statusOf(row.email));
    const counts = await countSignups(scope, temp.db);
    expect(counts.total).toBe((await rows(scope.status)).length);
    for (const status of SIGNUP_STATUSES) expect(counts.statusFacet[status], status).toBe((await rows()).filter((found) => found === status).length);
    const perDay = (await signupsPerDay(scope, new Date(START - DAY), temp.db))!;
    expect(perDay.reduce((sum, day) => sum + day.count, 0)).toBe(counts.total);
  });

  it("signup_counts matches the signups after every transition", async () => {
    await applyStatusAction("cli", { action: "invite", selection: { scope: { waitlistId }, limit: 20 } }, temp.db);
    await applyStatusAction("cli", { action: "withdraw", selection: { scope: { waitlistId, verified: false }, limit: 5 } }, temp.db);
    const derived = sqlite().prepare("SELECT verified, referral, status, day, count FROM signup_counts ORDER BY 1, 2, 3, 4").all();
    const direct = sqlite().prepare("SELECT verified, referral, status, created_at / 86400000 AS day, count(*) AS count FROM signups GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4").all();
    expect(derived).toEqual(direct);
  });
});

describe("events hold no address", () => {
  it("an erasure appends signup.erased without the address, in its own transaction", async () => {
    await applyStatusAction("cli", { action: "invite", selection: { waitlistId, emails: ["p7@example.com"] } }, temp.db);
    await eraseAddress("cli", { email: "P7@example.com" }, temp.db);
    const rows = sqlite().prepare("SELECT type, payload FROM events ORDER BY id").all() as { type: string; payload: string }[];
    expect(rows.map((row) => row.type)).toEqual(["signup.invited", "signup.erased"]);
    for (const row of rows) expect(row.payload.toLowerCase()).not.toContain("p7@");
  });

  it("an erasure drops the stored idempotent answers that named the address, and only those", async () => {
    const answer = (email: string) => ({ code: 200, body: JSON.stringify({ changed: 1, skipped: 0, signups: [{ email, status: "invited" }] }) });
    const scope = (key: string, requestHash: string) => ({ apiKeyId: "key-1", key, requestHash });
    const recordAs = (email: string) => () => answer(email);
    await answerOnce(scope("first", "hash-1"), async () => undefined, recordAs("P8@Example.com"), temp.db);
    await answerOnce(scope("second", "hash-2"), async () => undefined, recordAs("p9@example.com"), temp.db);
    await eraseAddress("cli", { email: "p8@example.com" }, temp.db);
    const stored = sqlite().prepare("SELECT key FROM idempotent_requests ORDER BY key").all();
    expect(stored).toEqual([{ key: "second" }]);
    // A replay of the kept one gives its first answer without running anything.
    const ranAgain = async () => {
      throw new Error("ran again");
    };
    expect(await answerOnce(scope("second", "hash-2"), ranAgain, recordAs("x@example.com"), temp.db)).toEqual({ replayed: true, answer: answer("p9@example.com") });
    await expect(answerOnce(scope("second", "other"), async () => undefined, recordAs("x@example.com"), temp.db)).rejects.toThrow(/another request/);
  });
});

it("changes listed signups by their ids, never by walking a state's partial index (SQLite replans for the bound state)", async () => {
  // Statistics of a large list taken before anyone was invited (as `PRAGMA optimize` leaves them): the
  // invited signups' partial index looks empty, so walking it looks free.
  sqlite().exec("ANALYZE; UPDATE sqlite_stat1 SET stat = '10000000 1000 1' WHERE idx IN ('signups_waitlist_order_idx', 'signups_waitlist_email_unique'); ANALYZE sqlite_schema");
  const ids = sqlite().prepare("SELECT id FROM signups ORDER BY id LIMIT 30").pluck().all() as number[];
  await applyStatusAction("cli", { action: "invite", selection: { waitlistId, ids } }, temp.db);
  const texts = (await statementsPreparedBy(temp.db, () => applyStatusAction("cli", { action: "complete", selection: { waitlistId, ids: [ids[0]!] } }, temp.db))).filter((text) => text.startsWith("UPDATE signups"));
  expect(texts).toHaveLength(1);
  // The plan SQLite makes once the state is bound: as if it were written in.
  const bound = texts[0]!.replaceAll("@from", "'invited'").replaceAll("@to", "'completed'");
  expect(queryPlan(temp.db, bound)).toMatch(/^SEARCH signups USING INTEGER PRIMARY KEY \(rowid=\?\)/);
});
