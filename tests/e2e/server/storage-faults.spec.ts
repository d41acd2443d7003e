import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Browser } from "@playwright/test";
import Database from "better-sqlite3";
import { openDatabase, type AppDatabase } from "@/db/client";
import { SESSION_COOKIE } from "@/lib/dashboard/session-cookie";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { createApiKey } from "@/lib/domain/keys/queries";
import { createSession } from "@/lib/domain/sessions";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { handOver, isRoot, mountSmallDisk, SMALL_DISK_NEEDS, unprivilegedUser } from "../../support/storage-faults";
import { insertSignups } from "../../support/insert-signups";
import { startTestServer, type TestServer } from "../support/test-server";

// Degraded, never down: while the database cannot be written (a lock another process holds, a full
// disk, a read-only file), every read answers 200 (/v1, dashboard pages, the CSV export), the
// bookkeeping a read does (a key's last-used time) is skipped and logged once, and every write that
// cannot happen answers 503 saying why, in one log line, with no stack trace. The servers of the
// lock and the full disk have one worker, so that what blocks its event loop blocks every request.

const SIGNUPS = 30;

interface Fixtures {
  waitlistId: string;
  /** Keys never used yet: each one's first request tries to record its last-used time. */
  viewKeys: string[];
  /** A key for the revoke form. */
  revocableKeyId: string;
  /** The admin session's Cookie header. */
  cookie: string;
  /** A key for the sign-in form. */
  signInKey: string;
}

async function createFixtures(db: AppDatabase): Promise<Fixtures> {
  const waitlist = await createWaitlist({ name: "Storage faults", website: "https://example.com" }, db);
  insertSignups(
    waitlist.id,
    Array.from({ length: SIGNUPS }, (_, index) => ({ email: `person${index}@example.com`, verified: true, referral: false, customInputs: "[]", createdAt: Date.now() - index * 60_000 })),
    db,
  );
  const admin = await createApiKey({ name: "admin", roles: ["waitlist:admin"] }, db);
  const { token } = await createSession(admin.id, db);
  const viewKeys: string[] = [];
  for (const index of [1, 2, 3]) viewKeys.push((await createApiKey({ name: `reader ${index}`, roles: ["waitlist:view"] }, db)).key);
  const signInKey = (await createApiKey({ name: "signs in", roles: ["waitlist:view"] }, db)).key;
  const revocableKeyId = (await createApiKey({ name: "to revoke", roles: ["waitlist:view"] }, db)).id;
  return { waitlistId: waitlist.id, viewKeys, revocableKeyId, cookie: `${SESSION_COOKIE}=${token}`, signInKey };
}

/** Every read answers 200, whoever asks: the API with each key (first use), the dashboard's pages and the CSV export. */
async function expectReadsServed(server: TestServer, fixtures: Fixtures) {
  for (const key of fixtures.viewKeys) {
    for (const path of ["/v1/waitlist", `/v1/waitlist/${fixtures.waitlistId}/signup`]) {
      const response = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
      expect(response.status, `${path}: ${await response.clone().text()}`).toBe(200);
      await response.arrayBuffer();
    }
  }
  for (const [path, shows] of [
    ["/", "Storage faults"],
    [`/waitlists/${fixtures.waitlistId}`, "person0@example.com"],
    ["/keys", "reader 3"],
  ] as const) {
    const response = await fetch(`${server.url}${path}`, { headers: { cookie: fixtures.cookie } });
    expect(response.status, path).toBe(200);
    expect((await response.text()).includes(shows), `${path} shows ${shows}`).toBe(true);
  }
  const csv = await fetch(`${server.url}/waitlists/${fixtures.waitlistId}/export`, { headers: { cookie: fixtures.cookie } });
  expect(csv.status).toBe(200);
  expect((await csv.text()).trim().split("\n")).toHaveLength(SIGNUPS + 1);
}

function post(server: TestServer, fixtures: Fixtures, path: string, form: Record<string, string>) {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { cookie: fixtures.cookie, origin: server.url, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString(),
    redirect: "manual",
  });
}

/** Dashboard write routes each answer 503 with one line that says why; nothing was created. */
async function expectWritesRefused(server: TestServer, fixtures: Fixtures, why: string) {
  for (const [path, form] of [
    ["/waitlists/create", { name: "Not created", website: "https://example.com" }],
    ["/keys/revoke", { id: fixtures.revocableKeyId }],
  ] as const) {
    const response = await post(server, fixtures, path, form);
    expect(response.status, path).toBe(503);
    expect(await response.text()).toBe(`${why}\n`);
  }
}

/**
 * The sign-in form says why it cannot sign in; the create-key form (a server action) says why no key
 * was made, as the write routes' 503 does; signing out drops the cookie and says the session lives on.
 */
async function expectSessionFormsExplain(browser: Browser, server: TestServer, fixtures: Fixtures, cause: string, why: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${server.url}/signin`);
  await page.getByLabel("API key").fill(fixtures.signInKey);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator("#api-key-error")).toHaveText(`You cannot sign in right now: ${why}.`);

  await context.addCookies([{ name: SESSION_COOKIE, value: fixtures.cookie.split("=")[1]!, url: server.url, httpOnly: true, sameSite: "Lax" }]);
  await page.goto(`${server.url}/keys`);
  await page.getByLabel("Name", { exact: true }).fill("not created");
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.locator("#create-key-error")).toHaveText(`${why.charAt(0).toUpperCase()}${why.slice(1)}.`);
  await expect(page.getByTestId("new-key")).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("keys-table")).toContainText("reader 3");
  await expect(page.getByTestId("keys-table")).not.toContainText("not created");

  await page.goto(server.url);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(`${server.url}/signin?signed_out=${cause}`);
  await expect(page.locator("#sign-out-unrecorded")).toHaveText(`You are signed out in this browser, but the server could not end the session (${why}): it stays valid until it expires.`);
  expect(await context.cookies(server.url)).toEqual([]);
  await context.close();
}

const storageLines = (server: TestServer) => server.stderr.filter((line) => line.startsWith("storage: "));
const refusedLines = (server: TestServer) => server.stderr.filter((line) => / write refused: /.test(line));
const stackLines = (server: TestServer) => server.stderr.filter((line) => /^\s+at /.test(line) || /Error:/.test(line));

test.describe("a lock another process holds", () => {
  let server: TestServer;
  let fixtures: Fixtures;
  test.beforeAll(async () => {
    server = await startTestServer({ portOffset: 30, name: "held-lock", env: { WEB_CONCURRENCY: "1" } });
    fixtures = await createFixtures(server.db());
  });
  test.afterAll(async () => server.stop());

  test("creating and revoking a key wait for it without blocking /v1, then succeed; reads carry on meanwhile", async ({ browser }) => {
    const context = await browser.newContext();
    await context.addCookies([{ name: SESSION_COOKIE, value: fixtures.cookie.split("=")[1]!, url: server.url, httpOnly: true, sameSite: "Lax" }]);
    const page = await context.newPage();
    await page.goto(`${server.url}/keys`);
    await page.getByLabel("Name", { exact: true }).fill("made while locked");
    const holder = new Database(server.databasePath);
    holder.exec("BEGIN IMMEDIATE");
    let released = false;
    try {
      // The create form's server action: it waits for the lock too.
      await page.getByRole("button", { name: "Create key" }).click();
      // While it waits for the lock, /v1 answers at once (before: the server was blocked inside SQLite for the busy timeout).
      const latencies: number[] = [];
      const until = Date.now() + 2_000;
      while (Date.now() < until) {
        const started = performance.now();
        const response = await fetch(`${server.url}/v1/waitlist`, { headers: { authorization: `Bearer ${fixtures.viewKeys[0]}` } });
        expect(response.status).toBe(200);
        await response.arrayBuffer();
        latencies.push(performance.now() - started);
        // Paced, to stay under the key's rate limit (600 a minute).
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const revoked = post(server, fixtures, "/keys/revoke", { id: fixtures.revocableKeyId });
      await new Promise((resolve) => setTimeout(resolve, 300));
      holder.exec("ROLLBACK");
      released = true;
      expect(Math.max(...latencies), `${latencies.length} /v1 requests`).toBeLessThan(1000);
      await expect(page.getByTestId("new-key")).toHaveText(/^wl_[A-Za-z0-9_-]{43}$/);
      await expect(page.getByTestId("keys-table")).toContainText("made while locked");
      const revokedResponse = await revoked;
      expect(revokedResponse.status).toBe(303);
      expect(revokedResponse.headers.get("location")).toBe("/keys?done=revoked");
    } finally {
      if (!released) holder.exec("ROLLBACK");
      holder.close();
      await context.close();
    }
    await expectReadsServed(server, fixtures);
    // The skipped last-used times: one line when they started failing, one when they worked again.
    expect(storageLines(server)).toEqual([
      `storage: a write to ${server.databasePath} failed: the database is locked by another process (an import or a backup?): nothing was changed; try again in a minute. Until writes work again, reads are served, bookkeeping (keys' last-used times) is skipped and other writes answer 503.`,
      `storage: writes to ${server.databasePath} work again.`,
    ]);
    expect(stackLines(server)).toEqual([]);
  });
});

test.describe("a full disk", () => {
  test.skip(!isRoot, SMALL_DISK_NEEDS);
  const disk = { current: undefined as ReturnType<typeof mountSmallDisk> | undefined };
  let server: TestServer;
  let fixtures: Fixtures;
  test.beforeAll(async () => {
    disk.current = mountSmallDisk(join(tmpdir(), `waitlist-full-disk-${process.env.E2E_PORT ?? 3100}`), 16);
    server = await startTestServer({ portOffset: 31, name: "full-disk", databasePath: join(disk.current.dir, "waitlist.db"), env: { WEB_CONCURRENCY: "1" } });
    fixtures = await createFixtures(server.db());
    // An empty -wal, so that any write needs a new block of the disk.
    server.db().$client.pragma("wal_checkpoint(TRUNCATE)");
    disk.current.fill();
  });
  test.afterAll(async () => {
    await server?.stop();
    disk.current?.unmount();
  });

  test("reads answer 200 and writes 503 saying the disk is full, each in one log line; all works again once there is room", async ({ browser }) => {
    const why = "the database's disk is full: nothing was changed; free some space on it";
    await expectReadsServed(server, fixtures);
    await expectWritesRefused(server, fixtures, "The database's disk is full: nothing was changed; free some space on it.");
    await expectSessionFormsExplain(browser, server, fixtures, "full", why);
    // Six readers' first requests tried to record their last-used times: one line says so.
    expect(storageLines(server)).toEqual([
      `storage: a write to ${server.databasePath} failed: ${why}. Until writes work again, reads are served, bookkeeping (keys' last-used times) is skipped and other writes answer 503.`,
    ]);
    // Three dashboard writes, the sign-in and the sign-out.
    expect(refusedLines(server).map((line) => line.replace(/^\[request [0-9a-f-]{36}\] /, ""))).toEqual(Array(5).fill(`write refused: ${why}`));
    expect(stackLines(server)).toEqual([]);

    const logged = storageLines(server).length;
    disk.current!.free();
    const read = await fetch(`${server.url}/v1/waitlist`, { headers: { authorization: `Bearer ${fixtures.viewKeys[1]}` } });
    expect(read.status).toBe(200);
    // The read's bookkeeping write works and says so. (A thread of the server whose own write failed
    // just before the disk was freed may say that in a line of its own, before or after this one.)
    await expect.poll(() => storageLines(server).slice(logged)).toContain(`storage: writes to ${server.databasePath} work again.`);
    const created = await post(server, fixtures, "/waitlists/create", { name: "Created once there is room", website: "https://example.com" });
    expect(created.status).toBe(303);
  });
});

test.describe("a full disk while joins arrive", () => {
  test.skip(!isRoot, SMALL_DISK_NEEDS);
  const disk = { current: undefined as ReturnType<typeof mountSmallDisk> | undefined };
  let server: TestServer;
  test.beforeAll(async () => {
    disk.current = mountSmallDisk(join(tmpdir(), `waitlist-full-disk-joins-${process.env.E2E_PORT ?? 3100}`), 16);
    server = await startTestServer({ portOffset: 58, name: "full-disk-joins", databasePath: join(disk.current.dir, "waitlist.db"), env: { WEB_CONCURRENCY: "1" } });
  });
  test.afterAll(async () => {
    await server?.stop();
    disk.current?.unmount();
  });

  test("joins failing on the join thread while reads skip their bookkeeping: one storage line for the outage, one when it ends", async () => {
    const db = server.db();
    const waitlist = await createWaitlist({ name: "Joined while full", website: "https://example.com" }, db);
    await updateJoinSettings(waitlist.id, { joining: "open", challenge: false }, "cli", db);
    const joinKey = (await createApiKey({ name: "joins", roles: ["waitlist:join"] }, db)).key;
    // Keys never used: each one's first read tries to record its last-used time, as the join thread holds the lock.
    const readers: string[] = [];
    for (let index = 0; index < 60; index++) readers.push((await createApiKey({ name: `reader ${index}`, roles: ["waitlist:view"] }, db)).key);
    db.$client.pragma("wal_checkpoint(TRUNCATE)");
    disk.current!.fill();
    const statuses = new Map<number, number>();
    let person = 0;
    for (const reader of readers) {
      const joins = Array.from({ length: 8 }, () =>
        fetch(`${server.url}/v1/waitlist/${waitlist.id}/signup`, {
          method: "POST",
          headers: { authorization: `Bearer ${joinKey}`, "content-type": "application/json" },
          body: JSON.stringify({ email: `joiner${person++}@example.com` }),
        }).then(async (response) => {
          await response.arrayBuffer();
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        }),
      );
      const read = fetch(`${server.url}/v1/waitlist`, { headers: { authorization: `Bearer ${reader}` } });
      const [readResponse] = await Promise.all([read, ...joins]);
      expect(readResponse.status).toBe(200);
    }
    expect(statuses.get(503)).toBeGreaterThan(0);
    expect(statuses.get(201) ?? 0).toBe(0);
    const why = "the database's disk is full: nothing was changed; free some space on it";
    expect(storageLines(server)).toEqual([
      `storage: a write to ${server.databasePath} failed: ${why}. Until writes work again, reads are served, bookkeeping (keys' last-used times) is skipped and other writes answer 503.`,
    ]);
    disk.current!.free();
    const read = await fetch(`${server.url}/v1/waitlist`, { headers: { authorization: `Bearer ${(await createApiKey({ name: "after", roles: ["waitlist:view"] }, db)).key}` } });
    expect(read.status).toBe(200);
    expect(storageLines(server)).toHaveLength(2);
    expect(storageLines(server).at(-1)).toBe(`storage: writes to ${server.databasePath} work again.`);
  });
});

test.describe("a read-only database file", () => {
  let dir: string;
  let server: TestServer;
  let fixtures: Fixtures;
  test.beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "waitlist-read-only-"));
    const databasePath = join(dir, "waitlist.db");
    const db = openDatabase(databasePath);
    fixtures = await createFixtures(db);
    db.$client.close();
    // The folder stays writable (for the -wal and -shm), the database file does not.
    handOver(dir, 0o755);
    handOver(databasePath, 0o444);
    // Two workers: what the primary says at start-up, they do not say again.
    server = await startTestServer({ portOffset: 32, name: "read-only", databasePath, user: unprivilegedUser, untouched: true, env: { WEB_CONCURRENCY: "2" } });
  });
  test.afterAll(async () => {
    await server?.stop();
    chmodSync(dir, 0o755);
    rmSync(dir, { recursive: true, force: true });
  });

  test("the server starts, says once that writes are off, serves every read, and refuses writes with a 503 saying why", async ({ browser }) => {
    const why = "the database cannot be written (a read-only file or folder; check its permissions): nothing was changed";
    const once = [`storage: a write to ${server.databasePath} failed: ${why}. Until writes work again, reads are served, bookkeeping (keys' last-used times) is skipped and other writes answer 503.`];
    expect(storageLines(server)).toEqual(once);
    await expectReadsServed(server, fixtures);
    await expectWritesRefused(server, fixtures, "The database cannot be written (a read-only file or folder; check its permissions): nothing was changed.");
    await expectSessionFormsExplain(browser, server, fixtures, "read-only", why);
    expect(storageLines(server)).toEqual(once);
    expect(refusedLines(server)).toHaveLength(5);
    expect(stackLines(server)).toEqual([]);
  });
});
