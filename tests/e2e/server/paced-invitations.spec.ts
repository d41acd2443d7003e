import { spawn, spawnSync } from "node:child_process";
import { expect, test } from "@playwright/test";
import { DAY_MS } from "@/lib/core/time";
import { addSchedule } from "@/lib/domain/invitations/schedules/store";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { insertSignups, makeSignups } from "../support/api-fixtures";
import { freshDatabasePath, startTestServer, type TestServer } from "../support/test-server";
import { eventually } from "../support/webhook-receiver";

// Paced invitations run exactly once per slot: with two server processes on one database (their
// scheduler threads both tick at the clock's time), with two `scheduler run --at` processes at once,
// and after a restart past two missed slots (the controllable clock of `scheduler run --at`): one
// catch-up run for the latest slot, never one per missed slot.

test.describe.configure({ mode: "serial", timeout: 240_000 });

const ENV = { WEB_CONCURRENCY: "1", REQUEST_LOG: "off" };
const CLI = ["--import", "tsx", "lib/cli/main.ts"];

let servers: TestServer[] = [];
test.afterEach(async () => {
  await Promise.all(servers.map((server) => server.stop("SIGKILL")));
  servers = [];
});

function cliEnv(databasePath: string) {
  return { ...process.env, DATABASE_PATH: databasePath, NODE_NO_WARNINGS: "1" };
}

/** `waitlists scheduler run --at <instant> --json`, started now; its answer once it exits. */
function schedulerRun(databasePath: string, at: number): Promise<{ scheduled: { scheduleId: number; slot: string; invited: number }[] }> {
  const child = spawn(process.execPath, [...CLI, "waitlists", "scheduler", "run", "--at", new Date(at).toISOString(), "--json"], { env: cliEnv(databasePath) });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => child.once("exit", (code) => (code === 0 ? resolve(JSON.parse(stdout)) : reject(new Error(stderr)))));
}

function rows(server: TestServer, sql: string, ...params: unknown[]) {
  return server.db().$client.prepare(sql).all(...params);
}

test("two server processes on one database: the schedule's slot runs once, inviting its batch once", async () => {
  const databasePath = freshDatabasePath("paced-two");
  servers.push(await startTestServer({ portOffset: 97, name: "paced-two", databasePath, env: ENV }));
  servers.push(await startTestServer({ portOffset: 98, name: "paced-two", databasePath, env: ENV }));
  const db = servers[0]!.db();
  const waitlist = await createWaitlist({ name: "Paced", website: "https://paced.example" }, db);
  await insertSignups(waitlist.id, makeSignups(30, `paced${Date.now()}`), db);
  // The next whole minute (UTC), at least 5 s away: both servers' scheduler threads reach it on their own.
  const slot = Math.ceil((Date.now() + 5_000) / 60_000) * 60_000;
  const time = new Date(slot).toISOString().slice(11, 16);
  const schedule = await addSchedule("cli", waitlist.id, { rule: `daily at ${time} UTC invite 7 where verified=true` }, db);

  await eventually("the slot's run", () => rows(servers[0]!, "SELECT 1 FROM invitation_schedule_runs WHERE schedule_id = ?", schedule.id).length > 0, 120_000);
  // Both threads tick at least twice more past the slot (every 15 s).
  await new Promise((resolve) => setTimeout(resolve, 35_000));
  expect(rows(servers[0]!, "SELECT slot, invited FROM invitation_schedule_runs WHERE schedule_id = ?", schedule.id)).toEqual([{ slot, invited: 7 }]);
  expect(rows(servers[0]!, "SELECT count(*) AS invited FROM signups WHERE waitlist_id = ? AND status = 'invited'", waitlist.id)).toEqual([{ invited: 7 }]);
  expect(rows(servers[0]!, "SELECT count(*) AS n FROM events WHERE waitlist_id = ? AND type = 'signup.invited'", waitlist.id)).toEqual([{ n: 7 }]);
  expect(rows(servers[0]!, "SELECT json_extract(payload, '$.invited') AS invited FROM events WHERE waitlist_id = ? AND type = 'invitations.batch_sent'", waitlist.id)).toEqual([{ invited: 7 }]);
  expect(rows(servers[0]!, "SELECT actor, action FROM audit_log WHERE target = ? AND actor = 'scheduler' ORDER BY id", waitlist.id)).toEqual([
    { actor: "scheduler", action: "signups.invite" },
    { actor: "scheduler", action: "signups.scheduled_invite" },
  ]);
});

test("two scheduler runs at once run a slot once; a restart past two missed slots makes one catch-up run", async () => {
  const databasePath = freshDatabasePath("paced-restart");
  servers.push(await startTestServer({ portOffset: 97, name: "paced-restart", databasePath, env: ENV }));
  const db = servers[0]!.db();
  const waitlist = await createWaitlist({ name: "Paced later", website: "https://paced.example" }, db);
  await insertSignups(waitlist.id, makeSignups(40, `later${Date.now()}`), db);
  const schedule = await addSchedule("cli", waitlist.id, { rule: "daily at 09:00 UTC invite 5" }, db);
  const day = (n: number) => Math.floor(Date.now() / DAY_MS) * DAY_MS + n * DAY_MS + 9 * 3_600_000;

  // Tomorrow's slot, by two processes at once: one runs it.
  const [first, second] = await Promise.all([schedulerRun(databasePath, day(1)), schedulerRun(databasePath, day(1))]);
  expect([...first.scheduled, ...second.scheduled]).toEqual([{ scheduleId: schedule.id, waitlistId: waitlist.id, slot: new Date(day(1)).toISOString(), invited: 5, ms: expect.any(Number) }]);

  // Down past the next two slots; started again an hour after the second.
  await servers[0]!.stop("SIGKILL");
  servers = [await startTestServer({ portOffset: 97, name: "paced-restart", databasePath, env: ENV })];
  const catchUp = await schedulerRun(databasePath, day(3) + 3_600_000);
  expect(catchUp.scheduled).toEqual([{ scheduleId: schedule.id, waitlistId: waitlist.id, slot: new Date(day(3)).toISOString(), invited: 5, ms: expect.any(Number) }]);
  expect((await schedulerRun(databasePath, day(3) + 2 * 3_600_000)).scheduled).toEqual([]);
  expect(rows(servers[0]!, "SELECT slot, invited FROM invitation_schedule_runs WHERE schedule_id = ? ORDER BY slot", schedule.id)).toEqual([
    { slot: day(1), invited: 5 },
    { slot: day(3), invited: 5 },
  ]);
  expect(rows(servers[0]!, "SELECT count(*) AS invited FROM signups WHERE waitlist_id = ? AND status = 'invited'", waitlist.id)).toEqual([{ invited: 10 }]);

  // The CLI lists, previews and pauses it.
  const listed = spawnSync(process.execPath, [...CLI, "waitlists", "schedules", waitlist.id], { encoding: "utf8", env: cliEnv(databasePath) });
  expect(listed.stdout).toContain(`${schedule.id}  daily at 09:00 UTC invite 5  (next run `);
  const preview = JSON.parse(spawnSync(process.execPath, [...CLI, "waitlists", "schedules", waitlist.id, "--preview", String(schedule.id), "--json"], { encoding: "utf8", env: cliEnv(databasePath) }).stdout) as { count: number; first: unknown[] };
  expect(preview).toMatchObject({ count: 5 });
  expect(preview.first).toHaveLength(5);
  const paused = spawnSync(process.execPath, [...CLI, "waitlists", "schedules", waitlist.id, "--pause", String(schedule.id)], { encoding: "utf8", env: cliEnv(databasePath) });
  expect(paused.stdout).toContain(`Paused schedule ${schedule.id}  daily at 09:00 UTC invite 5  (paused`);
  expect((await schedulerRun(databasePath, day(4))).scheduled).toEqual([]);
});
