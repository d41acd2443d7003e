import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fanOutEvents } from "@/lib/domain/deliveries/fan-out";
import { joinWaitlist } from "@/lib/domain/joining/join";
import { signupPosition } from "@/lib/domain/joining/position";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { milestoneFacet } from "@/lib/domain/milestones/facet";
import { milestonesSchema } from "@/lib/domain/milestones/milestone";
import { reachedMilestonesOf } from "@/lib/domain/milestones/reach";
import { milestonesOf, personMilestones, setMilestones } from "@/lib/domain/milestones/store";
import { setRankingRule } from "@/lib/domain/ranking/apply";
import { rankingRuleSchema } from "@/lib/domain/ranking/rule";
import { eraseSignup } from "@/lib/domain/signups/erase";
import { listSignupRows } from "@/lib/domain/signups/queries";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { inTurn, upTo } from "@/tests/support/in-turn";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

describe("milestones", () => {
  let temp: TempDatabase;
  let waitlistId: string;
  beforeEach(async () => {
    temp = tempDatabase();
    waitlistId = (await createWaitlist({ name: "Acme Beta", website: "https://acme.example" }, temp.db)).id;
    await updateJoinSettings(waitlistId, { joining: "open" }, "cli", temp.db);
  });
  afterEach(() => temp.close());

  const join = async (email: string, referralCode?: string) => (await joinWaitlist({ waitlistId, email, customInputs: [], referralCode }, temp.db)).signup;
  const place = async (id: number) => await signupPosition(waitlistId, id, temp.db);
  const events = (type: string) => temp.db.$client.prepare("SELECT signup_id AS signupId, body FROM events WHERE type = ? ORDER BY id").all(type) as { signupId: number; body: string }[];
  const withMilestone = async (labels: string[]) => (await listSignupRows({ scope: { waitlistId, milestone: labels }, offset: 0, limit: 100 }, temp.db)).map((row) => row.email);

  it("reads the CLI's lines and refuses bad ones with a reason", () => {
    expect(milestonesSchema.parse(["10:Early access:0:You're in, {{email}}", "3:Early bird:100"])).toEqual([
      { referrals: 3, label: "Early bird", places: 100, message: "" },
      { referrals: 10, label: "Early access", places: 0, message: "You're in, {{email}}" },
    ]);
    expect(milestonesSchema.parse(["5:Five:0:a: b"])[0]!.message).toBe("a: b");
    const refusal = (lines: string[]) => {
      const parsed = milestonesSchema.safeParse(lines);
      return parsed.success ? "accepted" : parsed.error.issues[0]!.message;
    };
    expect(refusal(["0:Zero"])).toMatch(/number of referrals from 1/);
    expect(refusal(["3"])).toMatch(/needs a label/);
    expect(refusal(["3:A, B"])).toMatch(/comma/);
    expect(refusal(["3:A:10001"])).toMatch(/places from 0 to 10,000/);
    expect(refusal(["3:A:1:{{secret}}"])).toMatch(/unknown placeholder/);
    expect(refusal(["3:A", "3:B"])).toMatch(/two milestones at 3/);
    expect(refusal(["3:Gold", "4:gold"])).toMatch(/two milestones labelled "gold"/);
    expect(refusal(Array.from({ length: 11 }, (_, index) => `${index + 1}:M${index}`))).toMatch(/at most 10/);
  });

  it("a referrer reaches a milestone when its counted referrals do: once, with its event, its places and its email", async () => {
    await setMilestones(waitlistId, ["2:Early bird:3:Thanks, {{email}}!", "4:Early access"], "cli", temp.db);
    const people = await inTurn(upTo(8), (index) => join(`p${index}@example.com`));
    const referrer = people[7]!;
    await join("f1@example.com", referrer.referral_code);
    expect(await reachedMilestonesOf(referrer.id, temp.db)).toEqual([]);
    expect(await place(referrer.id)).toBe(8);
    await join("f2@example.com", referrer.referral_code);
    expect((await reachedMilestonesOf(referrer.id, temp.db)).map((milestone) => milestone.label)).toEqual(["Early bird"]);
    // Three places up, under first come, first served.
    expect(await place(referrer.id)).toBe(5);
    const [event] = events("signup.milestone_reached");
    expect(event!.signupId).toBe(referrer.id);
    expect(JSON.parse(event!.body).data.milestone).toEqual({ referrals: 2, label: "Early bird" });
    expect(JSON.parse(event!.body).data.signup.email).toBe("p7@example.com");
    await join("f3@example.com", referrer.referral_code);
    expect(events("signup.milestone_reached")).toHaveLength(1);

    await fanOutEvents({ limit: 100, emailConfigured: true, publicUrl: "https://wait.example" }, temp.db);
    const emails = temp.db.$client.prepare("SELECT recipient, subject, body FROM deliveries WHERE event_type = 'signup.milestone_reached'").all() as { recipient: string; subject: string; body: string }[];
    expect(emails).toHaveLength(1);
    expect(emails[0]!.recipient).toBe("p7@example.com");
    expect(emails[0]!.subject).toBe("You reached “Early bird” on the Acme Beta waitlist");
    expect(emails[0]!.body).toContain("Thanks, p7@example.com!");
    expect(emails[0]!.body).toContain("https://wait.example/join/");

    expect((await personMilestones(waitlistId, referrer.id, temp.db)).map((milestone) => [milestone.label, milestone.reachedAt !== null])).toEqual([
      ["Early bird", true],
      ["Early access", false],
    ]);
  });

  it("a milestone added later is reached at once by everyone past it; one kept keeps who reached it; one removed forgets", async () => {
    const a = await join("a@example.com");
    const b = await join("b@example.com");
    await join("a1@example.com", a.referral_code);
    await join("a2@example.com", a.referral_code);
    await join("b1@example.com", b.referral_code);
    expect((await setMilestones(waitlistId, ["2:Two", "1:One"], "cli", temp.db)).reachedNow).toBe(3);
    expect(await withMilestone(["two"])).toEqual(["a@example.com"]);
    expect((await withMilestone(["One"])).sort()).toEqual(["a@example.com", "b@example.com"]);
    expect(events("signup.milestone_reached").map((event) => JSON.parse(event.body).data.milestone.label)).toEqual(["One", "One", "Two"]);
    expect(await milestoneFacet({ waitlistId }, temp.db)).toEqual([
      { label: "One", count: 2 },
      { label: "Two", count: 1 },
    ]);
    // Under another filter, and the facet leaves its own filter out.
    expect(await milestoneFacet({ waitlistId, emailContains: "b@", milestone: ["Two"] }, temp.db)).toEqual([
      { label: "One", count: 1 },
      { label: "Two", count: 0 },
    ]);

    // Labels swap between steps: each step keeps who reached it.
    expect((await setMilestones(waitlistId, ["1:Two", "2:One"], "cli", temp.db)).reachedNow).toBe(0);
    expect(await withMilestone(["One"])).toEqual(["a@example.com"]);
    await setMilestones(waitlistId, ["2:One"], "cli", temp.db);
    expect(temp.db.$client.prepare("SELECT count(*) AS n FROM signup_milestones").get()).toEqual({ n: 1 });
    expect(await withMilestone(["Two"])).toEqual([]);
    await setMilestones(waitlistId, [], "cli", temp.db);
    expect(await milestonesOf(waitlistId, temp.db)).toEqual([]);
    expect(temp.db.$client.prepare("SELECT count(*) AS n FROM signup_milestones").get()).toEqual({ n: 0 });
    expect(temp.db.$client.prepare("SELECT count(*) AS n FROM audit_log WHERE action = 'waitlist.milestones'").get()).toEqual({ n: 4 });
  });

  it("a rule change keeps the places milestones gave, whatever the rule", async () => {
    await setMilestones(waitlistId, ["1:One:2"], "cli", temp.db);
    const people = await inTurn(upTo(6), (index) => join(`p${index}@example.com`));
    await join("f@example.com", people[5]!.referral_code);
    expect(await place(people[5]!.id)).toBe(4);
    await setRankingRule(waitlistId, rankingRuleSchema.parse("referrals:1"), "cli", temp.db);
    expect(await place(people[5]!.id)).toBe(3);
    await setRankingRule(waitlistId, rankingRuleSchema.parse("first-come"), "cli", temp.db);
    expect(await place(people[5]!.id)).toBe(4);
  });

  it("leaves nothing of an erased person", async () => {
    await setMilestones(waitlistId, ["1:One"], "cli", temp.db);
    const a = await join("a@example.com");
    await join("a1@example.com", a.referral_code);
    expect(await reachedMilestonesOf(a.id, temp.db)).toHaveLength(1);
    await eraseSignup("cli", waitlistId, a.id, temp.db);
    expect(temp.db.$client.prepare("SELECT count(*) AS n FROM signup_milestones").get()).toEqual({ n: 0 });
    expect(events("signup.milestone_reached")[0]!.body).not.toContain("a@example.com");
  });
});
