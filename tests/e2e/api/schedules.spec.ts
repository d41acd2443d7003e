import { expect, test } from "@playwright/test";
import { createApiKey } from "@/lib/domain/keys/queries";
import { listAudit } from "@/lib/domain/audit/log";
import { Contract, expectProblem } from "../support/api-contract";
import { bearer, waitlistWithSignups } from "../support/api-fixtures";

// The paced invitations of /v1 against the real server: add, list, preview, pause, resume, change
// and remove a schedule with a waitlist:admin key, every answer checked against the OpenAPI
// document; a bad rule, an unknown id, a view key and a missing key are problems that change nothing.
// (That a schedule runs once per slot: tests/e2e/server/paced-invitations.spec.ts.)

const LIST = "/waitlist/{id}/schedules" as const;
const ONE = "/waitlist/{id}/schedules/{schedule_id}" as const;
const PREVIEW = "/waitlist/{id}/schedules/{schedule_id}/preview" as const;

interface Schedule {
  id: number;
  rule: string;
  days: string[];
  time_of_day: string;
  time_zone: string;
  batch: number;
  filter: string;
  guard: { percent: number; days: number } | null;
  paused: boolean;
  next_run_at: string | null;
  last_run: unknown;
}

let contract: Contract;
let admin: Record<string, string>;
let viewer: Record<string, string>;

test.beforeAll(async ({ request }) => {
  contract = await Contract.load(request);
  admin = bearer((await createApiKey({ name: "schedules admin", roles: ["waitlist:admin"] })).key);
  viewer = bearer((await createApiKey({ name: "schedules viewer", roles: ["waitlist:view"] })).key);
});

test("an admin adds, lists, previews, pauses, resumes, changes and removes a schedule; each change audited", async ({ request }) => {
  const { waitlist, seeds } = await waitlistWithSignups(8);
  const base = `/v1/waitlist/${waitlist.id}/schedules`;
  const added = await request.post(base, { headers: admin, data: { rule: "mon-fri at 9:00 Europe/Berlin invite 3 where verified=true guard 20% over 7d" } });
  expect(added.status()).toBe(201);
  const schedule = await contract.json<Schedule>(added, LIST, "POST");
  expect(schedule).toMatchObject({
    rule: "weekdays at 09:00 Europe/Berlin invite 3 where verified=true guard 20% over 7d",
    days: ["mon", "tue", "wed", "thu", "fri"],
    time_of_day: "09:00",
    time_zone: "Europe/Berlin",
    batch: 3,
    filter: "verified=true",
    guard: { percent: 20, days: 7 },
    paused: false,
    last_run: null,
  });
  expect(Date.parse(schedule.next_run_at!)).toBeGreaterThan(Date.now());

  expect(await contract.json<{ items: Schedule[] }>(await request.get(base, { headers: admin }), LIST)).toEqual({ items: [schedule] });
  const preview = await contract.json<{ count: number; first: { id: number; email: string }[] }>(await request.get(`${base}/${schedule.id}/preview`, { headers: admin }), PREVIEW);
  const verified = seeds.filter((seed) => seed.verified).map((seed) => seed.email);
  expect(preview.count).toBe(3);
  expect(preview.first.map((signup) => signup.email)).toEqual(verified.slice(0, 3));

  const paused = await contract.json<Schedule>(await request.patch(`${base}/${schedule.id}`, { headers: admin, data: { paused: true } }), ONE, "PATCH");
  expect(paused).toMatchObject({ paused: true, next_run_at: null });
  const changed = await contract.json<Schedule>(await request.patch(`${base}/${schedule.id}`, { headers: admin, data: { paused: false, rule: "daily at 18:00 UTC invite 5" } }), ONE, "PATCH");
  expect(changed).toMatchObject({ paused: false, rule: "daily at 18:00 UTC invite 5", filter: "", guard: null });
  const removed = await contract.json<Schedule>(await request.delete(`${base}/${schedule.id}`, { headers: admin }), ONE, "DELETE");
  expect(removed.id).toBe(schedule.id);
  expect(await contract.json<{ items: Schedule[] }>(await request.get(base, { headers: admin }), LIST)).toEqual({ items: [] });
  expect((await listAudit({ action: "waitlist.schedules", limit: 10 })).filter((row) => row.target === waitlist.id).map((row) => row.summary)).toEqual([
    `removed schedule ${schedule.id}: daily at 18:00 UTC invite 5`,
    `schedule ${schedule.id} rule daily at 18:00 UTC invite 5; resumed`,
    `schedule ${schedule.id} paused`,
    `added schedule ${schedule.id}: weekdays at 09:00 Europe/Berlin invite 3 where verified=true guard 20% over 7d`,
  ]);
});

test("bad rules, bodies and ids, an unknown schedule, a view key and no key are problems that change nothing", async ({ request }) => {
  const { waitlist } = await waitlistWithSignups(2);
  const base = `/v1/waitlist/${waitlist.id}/schedules`;
  for (const [data, parameter, detail] of [
    [{ rule: "someday at 09:00 invite 5" }, "rule", 'unknown days "someday"'],
    [{ rule: "daily at 09:00 Mars/Olympus invite 5" }, "rule", 'unknown time zone "Mars/Olympus"'],
    [{ rule: "daily at 09:00 invite 5 where colour=blue" }, "rule", 'Unknown query parameter "colour"'],
    [{ rule: "daily at 09:00 invite 5", paused: true }, "paused", "paused"],
    [{}, "rule", "rule"],
  ] as const) {
    const body = await expectProblem(contract, await request.post(base, { headers: admin, data }), LIST, { status: 400, code: "invalid_parameter", parameter }, "POST");
    expect(body.detail).toContain(detail);
  }
  await expectProblem(contract, await request.patch(`${base}/x1`, { headers: admin, data: { paused: true } }), ONE, { status: 400, code: "invalid_parameter", parameter: "schedule_id" }, "PATCH");
  await expectProblem(contract, await request.patch(`${base}/999999`, { headers: admin, data: { paused: true } }), ONE, { status: 404, code: "not_found" }, "PATCH");
  await expectProblem(contract, await request.delete(`${base}/999999`, { headers: admin }), ONE, { status: 404, code: "not_found" }, "DELETE");
  await expectProblem(contract, await request.get(base, { headers: viewer }), LIST, { status: 403, code: "forbidden" });
  await expectProblem(contract, await request.post(base, { headers: viewer, data: { rule: "daily at 09:00 invite 5" } }), LIST, { status: 403, code: "forbidden" }, "POST");
  await expectProblem(contract, await request.get(base), LIST, { status: 401, code: "unauthenticated" });
  await expectProblem(contract, await request.put(base, { headers: admin }), LIST, { status: 405, code: "method_not_allowed" }, "PUT");
  expect(await contract.json<{ items: unknown[] }>(await request.get(base, { headers: admin }), LIST)).toEqual({ items: [] });
});
