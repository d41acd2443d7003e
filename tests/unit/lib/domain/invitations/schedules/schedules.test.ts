import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { formatScheduleRule, parseScheduleRule } from "@/lib/domain/invitations/schedules/rule";
import { previewSchedule, runDueSchedules } from "@/lib/domain/invitations/schedules/run";
import { latestSlot, nextSlot } from "@/lib/domain/invitations/schedules/slots";
import { addSchedule, changeSchedule, getScheduleOrThrow } from "@/lib/domain/invitations/schedules/store";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { insertSignups } from "@/tests/support/insert-signups";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

const ADMIN = { keyId: "k", keyName: "tests" };
const berlin = { weekdays: 0b0011111, timeOfDay: "09:00", timeZone: "Europe/Berlin" };

describe("schedule rules and slots", () => {
  it("reads and writes one line of text, and refuses what it cannot read with a reason", () => {
    const parsed = parseScheduleRule("mon-fri at 9:00 Europe/Berlin invite 200 where verified=true&input.Role=Engineer guard 20% over 7d");
    expect(parsed).toEqual({ ok: true, rule: { ...berlin, batch: 200, filter: "verified=true&input.Role=Engineer", guard: { percent: 20, days: 7 } } });
    expect(formatScheduleRule(parsed.ok ? parsed.rule : (undefined as never))).toBe("weekdays at 09:00 Europe/Berlin invite 200 where verified=true&input.Role=Engineer guard 20% over 7d");
    expect(parseScheduleRule("mon,wed,fri at 18:30 invite 5")).toMatchObject({ ok: true, rule: { weekdays: 0b0010101, timeOfDay: "18:30", timeZone: "UTC", filter: "", guard: null } });
    expect(parseScheduleRule("sat-mon at 08:00 UTC invite 1")).toMatchObject({ ok: true, rule: { weekdays: 0b1100001 } });
    expect(parseScheduleRule("someday at 09:00 invite 5")).toMatchObject({ ok: false, message: expect.stringContaining('unknown days "someday"') });
    expect(parseScheduleRule("daily at 25:00 invite 5")).toMatchObject({ ok: false, message: expect.stringContaining("no such time of day") });
    expect(parseScheduleRule("daily at 09:00 Mars/Olympus invite 5")).toMatchObject({ ok: false, message: expect.stringContaining('unknown time zone "Mars/Olympus"') });
    expect(parseScheduleRule("daily at 09:00 invite 10001")).toMatchObject({ ok: false, message: expect.stringContaining("from 1 to 10,000") });
    expect(parseScheduleRule("invite everyone")).toMatchObject({ ok: false, message: expect.stringContaining("must read") });
  });

  it("finds slots in the zone's local time, across summer and winter time", () => {
    // Friday 2026-11-27 09:00 in Berlin is 08:00 UTC (winter); Monday 2026-06-01 09:00 is 07:00 UTC (summer).
    expect(latestSlot(berlin, Date.UTC(2026, 10, 27, 8, 0))).toBe(Date.UTC(2026, 10, 27, 8, 0));
    expect(latestSlot(berlin, Date.UTC(2026, 10, 27, 7, 59))).toBe(Date.UTC(2026, 10, 26, 8, 0));
    // Sunday: Friday's slot; the next is Monday's.
    expect(latestSlot(berlin, Date.UTC(2026, 10, 29, 12, 0))).toBe(Date.UTC(2026, 10, 27, 8, 0));
    expect(nextSlot(berlin, Date.UTC(2026, 10, 29, 12, 0))).toBe(Date.UTC(2026, 10, 30, 8, 0));
    expect(latestSlot(berlin, Date.UTC(2026, 5, 1, 7, 30))).toBe(Date.UTC(2026, 5, 1, 7, 0));
    // 02:30 on the night clocks spring forward (2026-03-29, a Sunday) runs at 03:30 summer time; on the night they fall back (2026-10-25), at the first 02:30.
    const night = { weekdays: 0b1000000, timeOfDay: "02:30", timeZone: "Europe/Berlin" };
    expect(latestSlot(night, Date.UTC(2026, 2, 29, 12))).toBe(Date.UTC(2026, 2, 29, 1, 30));
    expect(latestSlot(night, Date.UTC(2026, 9, 25, 12))).toBe(Date.UTC(2026, 9, 25, 0, 30));
  });
});

describe("paced invitations: a run per slot", () => {
  let temp: TempDatabase;
  let waitlistId: string;
  const created = Date.UTC(2026, 10, 23, 6, 0); // Monday, before 09:00 in Berlin
  const slot = (day: number) => Date.UTC(2026, 10, day, 8, 0);

  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(created);
    temp = tempDatabase();
    waitlistId = (await createWaitlist({ name: "Paced", website: "https://paced.example" }, temp.db)).id;
    insertSignups(waitlistId, Array.from({ length: 20 }, (_, index) => ({ email: `p${index}@example.com`, verified: index % 2 === 0, referral: false, customInputs: "[]" })), temp.db);
  });
  afterEach(() => {
    temp.close();
    vi.useRealTimers();
  });

  const invited = () => temp.db.$client.prepare("SELECT email FROM signups WHERE status = 'invited' ORDER BY id").pluck().all() as string[];
  const batchEvents = () => temp.db.$client.prepare("SELECT payload FROM events WHERE type = 'invitations.batch_sent' ORDER BY id").pluck().all().map((text) => JSON.parse(text as string)) as Record<string, unknown>[];

  it("runs once for its slot, the next in line of its filter, with its event and audit rows; after downtime one catch-up run for the latest slot", async () => {
    const schedule = await addSchedule(ADMIN, waitlistId, { rule: "weekdays at 09:00 Europe/Berlin invite 3 where verified=true" }, temp.db);
    expect(await previewSchedule(schedule, created, temp.db)).toEqual({ nextRunAt: new Date(slot(23)).toISOString(), count: 3, first: ["p0", "p2", "p4"].map((name, index) => ({ id: index * 2 + 1, email: `${name}@example.com` })) });
    // Before its first slot (and the slots before it was made): nothing.
    expect(await runDueSchedules(slot(23) - 1, temp.db)).toEqual([]);
    expect(await runDueSchedules(slot(23), temp.db)).toEqual([{ scheduleId: schedule.id, waitlistId, slot: new Date(slot(23)).toISOString(), invited: 3, ms: expect.any(Number) }]);
    expect(await runDueSchedules(slot(23) + 60_000, temp.db)).toEqual([]);
    expect(invited()).toEqual(["p0@example.com", "p2@example.com", "p4@example.com"]);
    // Down from Monday to Thursday noon: Tuesday's, Wednesday's and Thursday's slots missed; one run, for Thursday's.
    const runs = await runDueSchedules(slot(26) + 3 * 3_600_000, temp.db);
    expect(runs).toEqual([{ scheduleId: schedule.id, waitlistId, slot: new Date(slot(26)).toISOString(), invited: 3, ms: expect.any(Number) }]);
    expect(invited()).toHaveLength(6);
    expect(batchEvents()).toEqual([
      { schedule_id: schedule.id, slot: new Date(slot(23)).toISOString(), invited: 3, batch: 3 },
      { schedule_id: schedule.id, slot: new Date(slot(26)).toISOString(), invited: 3, batch: 3 },
    ]);
    const audit = temp.db.$client.prepare("SELECT actor, action FROM audit_log WHERE actor = 'scheduler' ORDER BY id").all();
    expect(audit).toEqual([
      { actor: "scheduler", action: "signups.invite" },
      { actor: "scheduler", action: "signups.scheduled_invite" },
      { actor: "scheduler", action: "signups.invite" },
      { actor: "scheduler", action: "signups.scheduled_invite" },
    ]);
    // Paused: no run; resumed: the next slot runs.
    await changeSchedule(ADMIN, waitlistId, schedule.id, { paused: true }, temp.db);
    expect(await runDueSchedules(slot(27), temp.db)).toEqual([]);
    await changeSchedule(ADMIN, waitlistId, schedule.id, { paused: false }, temp.db);
    expect(await runDueSchedules(slot(27), temp.db)).toHaveLength(1);
  });

  it("its guard pauses it when too few of the recent invitations were redeemed, and says why", async () => {
    await applyStatusAction(ADMIN, { action: "invite", selection: { waitlistId, ids: [1, 2, 3, 4] } }, temp.db);
    await applyStatusAction(ADMIN, { action: "complete", selection: { waitlistId, ids: [1] } }, temp.db);
    const schedule = await addSchedule(ADMIN, waitlistId, { rule: "daily at 09:00 Europe/Berlin invite 5 guard 30% over 7d" }, temp.db);
    const [run] = await runDueSchedules(slot(23), temp.db);
    expect(run).toMatchObject({ invited: 0, paused: "its guard: 25% of the 4 invitations of the last 7 days were redeemed (under 30%)" });
    expect(await getScheduleOrThrow(waitlistId, schedule.id, temp.db)).toMatchObject({ paused: true, pausedReason: run!.paused });
    expect(await runDueSchedules(slot(24), temp.db)).toEqual([]);
  });

  it("refuses a rule whose filter /v1 would refuse", async () => {
    await expect(addSchedule(ADMIN, waitlistId, { rule: "daily at 09:00 invite 5 where colour=blue" }, temp.db)).rejects.toThrow('The rule\'s filter: Unknown query parameter "colour".');
  });
});
