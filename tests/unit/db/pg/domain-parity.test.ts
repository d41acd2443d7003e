import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { AppDatabase } from "@/db/client";
import { listAudit } from "@/lib/domain/audit/log";
import { listEventFeed } from "@/lib/domain/deliveries/feed";
import { signupEvents } from "@/lib/domain/events";
import { funnelStats } from "@/lib/domain/funnel/stats";
import { leaderboardRows } from "@/lib/domain/joining/leaderboard";
import { personMilestones, setMilestones } from "@/lib/domain/milestones/store";
import { inputColumnsOf, signupCsvChunks } from "@/lib/domain/signups/csv";
import { inputFacets, topInputLabels } from "@/lib/domain/signups/facets";
import { joinWaitlist } from "@/lib/domain/joining/join";
import { signupPosition } from "@/lib/domain/joining/position";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { countSignups, signupsPerDay } from "@/lib/domain/signups/counts";
import { eraseSignup } from "@/lib/domain/signups/erase";
import { findSignupsByEmail } from "@/lib/domain/signups/find";
import { signupJsonPage, signupRowBatches } from "@/lib/domain/signups/queries";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { createWaitlist, listWaitlists } from "@/lib/domain/waitlists/queries";
import { pgliteDatabase } from "@/tests/support/pglite";
import { tempDatabase } from "@/tests/support/temp-db";

// One script of the domain's own calls (create a list, join, change statuses, erase, read it back as
// /v1 does) on each engine, at the same clock: every answer must be the same, the /v1 JSON byte for
// byte. What is random (ids of lists, referral codes, keyed hashes) is named by its first appearance.

const T0 = Date.UTC(2026, 2, 14, 9, 30, 15, 250);
const fields = [
  { label: "Company", type: "text" as const, required: true },
  { label: "Plan", type: "choice" as const, options: ["Free", "Pro"], required: false },
];
const PEOPLE = [
  { email: "Ada@Example.com", company: "Acme", plan: "Pro" },
  { email: "bob@mail.example", company: 'Quote "and" back\\slash', plan: "Free" },
  { email: "zoe@example.org", company: "Ünïcode ✓ 🚀", plan: undefined },
  { email: "carol+tag@example.com", company: "Slash / and <html>", plan: "Pro" },
  { email: "dan_x.y@example.com", company: "Percent", plan: undefined },
];

async function script(db: AppDatabase) {
  const answers: unknown[] = [];
  vi.setSystemTime(T0 - 60_000);
  const waitlist = await createWaitlist({ name: "Parity Beta", website: "https://parity.example" }, db);
  const waitlistId = waitlist.id;
  await updateJoinSettings(waitlistId, { joining: "open", fields }, "cli", db);
  let code: string | undefined;
  let firstId: number | undefined;
  for (const [index, person] of PEOPLE.entries()) {
    vi.setSystemTime(T0 + index * 61_001);
    const customInputs = [{ label: "Company", value: person.company }, ...(person.plan ? [{ label: "Plan", value: person.plan }] : [])];
    const joined = await joinWaitlist({ waitlistId, email: person.email, customInputs, referralCode: index === 3 ? code : undefined, source: { utm_source: index % 2 ? "news" : undefined } }, db);
    code ??= joined.signup.referral_code ?? undefined;
    firstId ??= joined.signup.id;
    answers.push(["joined", joined]);
  }
  answers.push(["again", await joinWaitlist({ waitlistId, email: "ADA@example.COM", customInputs: [{ label: "Company", value: "Other" }] }, db)]);
  vi.setSystemTime(T0 + 3_600_000);
  answers.push(["invite", await applyStatusAction("cli", { action: "invite", selection: { waitlistId, emails: ["bob@mail.example", "zoe@example.org", "nobody@example.com"] }, withSignups: true }, db)]);
  answers.push(["reject", await applyStatusAction("cli", { action: "reject", selection: { scope: { waitlistId, status: ["waiting"] }, limit: 1 } }, db)]);
  const scope = { waitlistId };
  answers.push(["page", await signupJsonPage({ scope, limit: 100 }, db)]);
  answers.push(["page of 2", await signupJsonPage({ scope, limit: 2 }, db)]);
  answers.push(["invited", await signupJsonPage({ scope: { waitlistId, status: ["invited"] }, limit: 100 }, db)]);
  answers.push(["counts", await countSignups(scope, db)]);
  answers.push(["contains", await countSignups({ waitlistId, emailContains: "EXAMPLE.com" }, db)]);
  answers.push(["contains _", await countSignups({ waitlistId, emailContains: "_" }, db)]);
  answers.push(["find", await findSignupsByEmail({ email: "ada@example.com", limit: 10 }, db)]);
  answers.push(["find contains", await findSignupsByEmail({ contains: "EXAMPLE", limit: 10 }, db)]);
  answers.push(["position", await signupPosition(waitlistId, firstId!, db)]);
  answers.push(["milestones", await setMilestones(waitlistId, ["1:First friend", "3:Early access:100"], "cli", db)]);
  answers.push(["person milestones", await personMilestones(waitlistId, firstId!, db)]);
  answers.push(["leaderboard", await leaderboardRows(waitlistId, db)]);
  answers.push(["labels", await topInputLabels(waitlistId, 10, db)]);
  answers.push(["facets", await inputFacets(scope, {}, db)]);
  answers.push(["per day", await signupsPerDay(scope, new Date(T0 - 86_400_000), db)]);
  answers.push(["funnel", await funnelStats(waitlistId, {}, db)]);
  answers.push(["feed", await listEventFeed(waitlistId, { limit: 100 }, db)]);
  let csv = "";
  for await (const chunk of signupCsvChunks(signupRowBatches(scope, 2, db), await inputColumnsOf(waitlistId, db))) csv += chunk;
  answers.push(["csv", csv]);
  answers.push(["events", await signupEvents(firstId!, db)]);
  vi.setSystemTime(T0 + 7_200_000);
  answers.push(["erase", await eraseSignup("cli", waitlistId, firstId!, db)]);
  answers.push(["after erasure", await signupJsonPage({ scope, limit: 100 }, db)]);
  answers.push(["waitlists", await listWaitlists({}, db)]);
  answers.push(["audit", await listAudit({ limit: 100 }, db)]);
  return JSON.stringify(answers);
}

/**
 * Names what is random by its order of first appearance, wherever it appears: ids of lists, referral
 * codes, and the audit log's hash of an erased address (keyed per database).
 */
const named = (text: string) => {
  const randoms = [...new Set([...text.matchAll(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b|\b[0-9a-f]{64}\b|"referral_code":"([^"]+)"/g)].map((match) => match[1] ?? match[0]))];
  return randoms.reduce((named, random, index) => named.replaceAll(random, `<random ${index + 1}>`), text);
};

describe("the domain on both engines", () => {
  const opened: AppDatabase[] = [];
  const closers: (() => void)[] = [];
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
  });
  afterAll(async () => {
    vi.useRealTimers();
    for (const close of closers) close();
    for (const db of opened) if (db.$engine.kind === "postgres") await db.$engine.close();
  });

  it("gives the same answers, and the same /v1 JSON byte for byte, on SQLite and on PostgreSQL", async () => {
    const sqlite = tempDatabase();
    closers.push(() => sqlite.close());
    const pg = await pgliteDatabase();
    opened.push(pg);
    const onSqlite = named(await script(sqlite.db));
    const onPostgres = named(await script(pg));
    expect(onPostgres).toBe(onSqlite);
    // The script did what it says (not two empty answers alike).
    expect(onSqlite).toContain("zoe@example.org");
    expect(onSqlite).toContain('"invited"');
  }, 120_000);
});
