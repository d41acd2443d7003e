import { spawnSync } from "node:child_process";
import { appendFileSync, mkdtempSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { startTestServer, type TestServer } from "../support/test-server";
import { databaseState, readEvents, signupCsv, uploadFixture } from "../support/upload-client";

// Issue 19, items 8 and 11, for uploads: a second upload while an import runs, a delimiter for a JSON
// file, the session's request budget, and full disks (the temporary folder's, the database's), each
// refused at once with a sentence that names the real cause, on servers of their own.

test.describe.configure({ timeout: 180_000 });

test.describe("one server, default limits", () => {
  let temporaryFolder: string;
  let server: TestServer;
  test.beforeAll(async () => {
    temporaryFolder = mkdtempSync(join(tmpdir(), "waitlist-limits-tmp-"));
    server = await startTestServer({ portOffset: 41, name: "import-limits", env: { TMPDIR: temporaryFolder, REQUEST_LOG: "off", WEB_CONCURRENCY: "2" } });
  });
  test.afterAll(async () => {
    await server?.stop();
    rmSync(temporaryFolder, { recursive: true, force: true });
  });

  test("a second upload while an import runs is refused at once (409), before its body is read; the first goes on, and the second works afterwards", async () => {
    const first = await uploadFixture(server, "First import");
    const second = await uploadFixture(server, "Second import");
    const running = readEvents(await fetch(first.uploadUrl("first.csv"), { method: "POST", headers: first.headers, body: signupCsv(60_000, "first.example") }));
    await expect.poll(() => running.events.some((event) => event.type === "progress"), { timeout: 60_000 }).toBe(true);

    const started = Date.now();
    const refused = await fetch(second.uploadUrl("second.csv"), { method: "POST", headers: second.headers, body: signupCsv(10, "second.example") });
    const elapsed = Date.now() - started;
    expect(refused.status).toBe(409);
    expect(await refused.text()).toBe("Another import is running on this server: upload this file again once it has finished. Nothing was imported.\n");
    // Two workers share the one import lock; SQLite's busy wait (5 s) is never reached.
    expect(elapsed).toBeLessThan(2_000);

    await running.finished;
    expect(running.events.at(-1)).toEqual({ type: "done", imported: 60_000, skipped_duplicates: 0 });
    const retried = readEvents(await fetch(second.uploadUrl("second.csv"), { method: "POST", headers: second.headers, body: signupCsv(10, "second.example") }));
    await retried.finished;
    expect(retried.events.at(-1)).toEqual({ type: "done", imported: 10, skipped_duplicates: 0 });
    expect(databaseState(server.databasePath, second.waitlistId).signups).toBe(10);
  });

  test("an import that finds the database locked by another process says so, logged in one line, and imports nothing", async () => {
    const { waitlistId, headers, uploadUrl } = await uploadFixture(server, "Locked");
    const holder = new Database(server.databasePath);
    holder.exec("BEGIN IMMEDIATE");
    try {
      const upload = readEvents(await fetch(uploadUrl("locked.csv"), { method: "POST", headers, body: signupCsv(10, "locked.example") }));
      await upload.finished;
      expect(upload.events.at(-1)).toEqual({ type: "failed", message: "the database is locked by another process (an import or a backup?): nothing was changed; try again in a minute" });
    } finally {
      holder.exec("ROLLBACK");
      holder.close();
    }
    expect(server.stderr.filter((line) => line.includes(waitlistId))).toEqual([
      `import into waitlist ${waitlistId} failed: the database is locked by another process (an import or a backup?): nothing was changed; try again in a minute (SQLITE_BUSY)`,
    ]);
    expect(databaseState(server.databasePath, waitlistId).signups).toBe(0);
  });

  test("a delimiter for a JSON or NDJSON file is refused before the body is read, without the CLI's --delimiter", async () => {
    const { waitlistId, headers, uploadUrl } = await uploadFixture(server, "Delimiter");
    for (const name of ["list.json", "list.ndjson"]) {
      // A body that never ends until the answer has come: the server must answer without reading it.
      let endBody: () => void = () => {};
      const bodyEnded = new Promise<void>((resolve) => (endBody = resolve));
      let sent = false;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (!sent) {
            sent = true;
            controller.enqueue(new TextEncoder().encode('[{"email":"never@delimiter.example"}'));
            return;
          }
          await bodyEnded;
          controller.close();
        },
      });
      const answered = fetch(`${uploadUrl(name)}&delimiter=${encodeURIComponent(";")}`, { method: "POST", headers, body, duplex: "half" } as RequestInit);
      const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error("no answer before the body ended")), 10_000));
      try {
        const response = await Promise.race([answered, timeout]);
        expect(response.status).toBe(400);
        const text = await response.text();
        expect(text).toBe("Invalid delimiter: a delimiter applies to CSV files only: leave it out for a JSON or NDJSON file. Nothing was imported.\n");
        expect(text).not.toContain("--delimiter");
      } finally {
        endBody();
      }
    }
    expect(databaseState(server.databasePath, waitlistId).signups).toBe(0);
    expect(server.stderr.filter((line) => line.includes(waitlistId))).toEqual([]);
  });
});

test("uploads count against the session's dashboard budget, with pages, and a refused upload imports nothing", async () => {
  const temporaryFolder = mkdtempSync(join(tmpdir(), "waitlist-budget-tmp-"));
  const server = await startTestServer({ portOffset: 42, name: "import-budget", env: { TMPDIR: temporaryFolder, REQUEST_LOG: "off", WEB_CONCURRENCY: "1", DASHBOARD_REQUESTS_PER_MINUTE: "4" } });
  try {
    const { waitlistId, headers, uploadUrl } = await uploadFixture(server, "Budget");
    expect((await fetch(`${server.url}/waitlists/${waitlistId}`, { headers })).status).toBe(200);
    for (const index of [1, 2]) {
      const upload = readEvents(await fetch(uploadUrl(`batch${index}.csv`), { method: "POST", headers, body: signupCsv(5, `batch${index}.example`) }));
      await upload.finished;
      expect(upload.events.at(-1)).toMatchObject({ type: "done", imported: 5 });
    }
    expect((await fetch(`${server.url}/waitlists/${waitlistId}/import`, { headers })).status).toBe(200);
    // Four requests in this minute: the fifth, an upload, is refused, and so is a page after it.
    const refused = await fetch(uploadUrl("batch3.csv"), { method: "POST", headers, body: signupCsv(5, "batch3.example") });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.text()).toMatch(/^Too many requests: this session made more than 4 dashboard requests in a minute, and is paused for \d+ seconds?\. Nothing was imported\.\n$/);
    expect((await fetch(`${server.url}/waitlists/${waitlistId}`, { headers })).status).toBe(429);
    expect(databaseState(server.databasePath, waitlistId).signups).toBe(10);
  } finally {
    await server.stop();
    rmSync(temporaryFolder, { recursive: true, force: true });
  }
});

/** Mounts a tmpfs of `megabytes` on a new folder (root only), or undefined when this machine cannot. */
function mountTmpfs(megabytes: number): string | undefined {
  const folder = mkdtempSync(join(tmpdir(), "waitlist-tmpfs-"));
  const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${megabytes}m,mode=0700`, "tmpfs", folder], { encoding: "utf8" });
  if (mounted.status === 0) return folder;
  rmSync(folder, { recursive: true, force: true });
  return undefined;
}

function unmount(folder: string | undefined) {
  if (!folder) return;
  spawnSync("umount", [folder]);
  rmSync(folder, { recursive: true, force: true });
}

/**
 * Fills the file system of `folder` until at most `leave` bytes are free (about: whole blocks), a
 * megabyte at a time: the server writes there too meanwhile (its database's WAL), so one write sized
 * from one look at the free space can find less room than it was told (ENOSPC).
 */
function fill(folder: string, leave: number) {
  const filler = join(folder, "filler");
  writeFileSync(filler, "");
  for (;;) {
    const stats = statfsSync(folder);
    const room = stats.bavail * stats.bsize - leave;
    if (room <= 0) return;
    try {
      appendFileSync(filler, Buffer.alloc(Math.min(room, 1024 * 1024)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOSPC") return;
      throw error;
    }
  }
}

test("full disks: the temporary folder's refuses the upload (503) and the database's fails the import, each said and logged in one line", async () => {
  const temporaryFolder = mountTmpfs(32);
  const databaseFolder = mountTmpfs(8);
  let server: TestServer | undefined;
  try {
    test.skip(!temporaryFolder || !databaseFolder, "mounting a tmpfs needs root (CI runs as root)");
    server = await startTestServer({
      portOffset: 43,
      name: "import-full",
      databasePath: join(databaseFolder!, "full.db"),
      env: { TMPDIR: temporaryFolder!, REQUEST_LOG: "off", WEB_CONCURRENCY: "1" },
    });
    const { waitlistId, headers, uploadUrl } = await uploadFixture(server, "Full disks");

    // The temporary folder's disk is full: the file cannot be received.
    fill(temporaryFolder!, 0);
    const refused = await fetch(uploadUrl("people.csv"), { method: "POST", headers, body: signupCsv(20_000, "tmpfull.example") });
    expect(refused.status).toBe(503);
    expect(await refused.text()).toBe(
      `The server's temporary folder (${temporaryFolder}) is on a full disk: the file could not be received, and nothing was imported. Free some space there, or set TMPDIR to a folder with room for the file.\n`,
    );
    expect(server.stderr.filter((line) => line.includes("import upload refused"))).toEqual([`import upload refused: the temporary folder's disk is full (${temporaryFolder}, ENOSPC)`]);
    rmSync(join(temporaryFolder!, "filler"));

    // The database's disk is full: the import runs out of room for its writes and rolls back.
    fill(databaseFolder!, 256 * 1024);
    const failed = readEvents(await fetch(uploadUrl("people.csv"), { method: "POST", headers, body: signupCsv(60_000, "dbfull.example") }));
    await failed.finished;
    expect(failed.events.at(-1)).toEqual({ type: "failed", message: "the database's disk is full: nothing was changed; free some space on it" });
    expect(server.stderr.filter((line) => line.includes(waitlistId))).toEqual([
      `import into waitlist ${waitlistId} failed: the database's disk is full: nothing was changed; free some space on it (SQLITE_FULL)`,
    ]);
    rmSync(join(databaseFolder!, "filler"));
    expect(databaseState(server.databasePath, waitlistId)).toEqual({ signups: 0, imports: 0, integrity: "ok" });
  } finally {
    await server?.stop();
    unmount(temporaryFolder);
    unmount(databaseFolder);
  }
});
