import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { openReadOnlyDatabase, type AppDatabase } from "@/db/client";
import { createApiKey } from "@/lib/domain/keys/queries";
import { getSessionFromToken, startSession } from "@/lib/domain/sessions";
import { skippableWrite, withBusyWait, writeWhenUnlocked } from "@/lib/sqlite/busy";
import { BUSY_OUTAGE_MS } from "@/lib/sqlite/write-outage";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

// Another process holding the write lock (as `signups import` does until it commits) must neither
// block the server nor fail its requests.

let temp: TempDatabase;
let other: Database.Database;

/** A write of `text` on `database`, as the helpers under test take one. */
const writing = (database: AppDatabase, text: string) => async () => {
  database.$client.exec(text);
};

beforeEach(() => {
  temp = tempDatabase();
  other = new Database(temp.path);
});

afterEach(() => {
  if (other.inTransaction) other.exec("ROLLBACK");
  other.close();
  temp.close();
});

describe("writes while another process holds the write lock", () => {
  it("skippableWrite skips at once, and writes when the lock is free", async () => {
    other.exec("BEGIN IMMEDIATE");
    const started = performance.now();
    expect(await skippableWrite(temp.db, writing(temp.db, "CREATE TABLE t (x)"))).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
    other.exec("ROLLBACK");
    expect(await skippableWrite(temp.db, writing(temp.db, "CREATE TABLE t (x)"))).toBe(true);
    expect(temp.db.$client.pragma("busy_timeout", { simple: true })).toBe(5000);
  });

  it("withBusyWait waits inside SQLite no longer than it is told (a join's deadline), then fails busy; the connection keeps its timeout", async () => {
    other.exec("BEGIN IMMEDIATE");
    const started = performance.now();
    await expect(withBusyWait(temp.db, 300, writing(temp.db, "CREATE TABLE t (x)"))).rejects.toThrow(expect.objectContaining({ code: "SQLITE_BUSY" }));
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThan(250);
    expect(waited).toBeLessThan(2_000);
    expect(temp.db.$client.pragma("busy_timeout", { simple: true })).toBe(5000);
    other.exec("ROLLBACK");
    await withBusyWait(temp.db, 300, writing(temp.db, "CREATE TABLE t (x)"));
  });

  it("writeWhenUnlocked waits without blocking the event loop, then writes", async () => {
    const { id } = await createApiKey({ name: "k", roles: ["waitlist:view"] }, temp.db);
    other.exec("BEGIN IMMEDIATE");
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    setTimeout(() => other.exec("COMMIT"), 300);
    const started = performance.now();
    const session = await startSession(id, temp.db);
    clearInterval(ticker);
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
    // The process kept running timers while it waited (a blocking wait lets none run: 0). Not 30: on a
    // loaded machine a 10 ms timer fires far less often.
    expect(ticks).toBeGreaterThanOrEqual(3);
    expect((await getSessionFromToken(session.token, temp.db))?.key.id).toBe(id);
  });

  it("writeWhenUnlocked gives up with the busy error after its deadline, and rethrows other errors", async () => {
    other.exec("BEGIN IMMEDIATE");
    await expect(writeWhenUnlocked(temp.db, writing(temp.db, "CREATE TABLE t (x)"), 100)).rejects.toMatchObject({ code: "SQLITE_BUSY" });
    other.exec("ROLLBACK");
    await expect(writeWhenUnlocked(temp.db, writing(temp.db, "NOT SQL"))).rejects.toMatchObject({ code: "SQLITE_ERROR" });
  });
});

describe("bookkeeping writes while the database cannot be written", () => {
  it("skippableWrite skips any storage failure, logged once per outage (a lock taken meanwhile is not another), and once more when writes work again", async () => {
    // A read-only connection refuses writes as a read-only file does (SQLITE_READONLY).
    const readOnly = openReadOnlyDatabase(temp.path);
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      for (let request = 0; request < 3; request++) expect(await skippableWrite(readOnly, writing(readOnly, "CREATE TABLE t (x)"))).toBe(false);
      // While the file cannot be written, the app's own writers still take the lock for their failing
      // writes: a write finding it taken (busy) is the same outage, however often the two alternate.
      for (let request = 0; request < 50; request++) {
        other.exec("BEGIN IMMEDIATE");
        expect(await skippableWrite(temp.db, writing(temp.db, "CREATE TABLE t (x)"))).toBe(false);
        other.exec("ROLLBACK");
        expect(await skippableWrite(readOnly, writing(readOnly, "CREATE TABLE t (x)"))).toBe(false);
      }
      expect(await skippableWrite(temp.db, writing(temp.db, "CREATE TABLE t (x)"))).toBe(true);
      // Another writer's short turns (a join thread's commits) are no outage, however often they come.
      for (let request = 0; request < 50; request++) {
        other.exec("BEGIN IMMEDIATE");
        expect(await skippableWrite(temp.db, writing(temp.db, "CREATE TABLE v (x)"))).toBe(false);
        other.exec("ROLLBACK");
        expect(await skippableWrite(temp.db, writing(temp.db, "INSERT INTO t VALUES (1)"))).toBe(true);
      }
      // A lock held elsewhere for BUSY_OUTAGE_MS with no write getting through: an outage of its own, said once.
      const start = Date.now();
      const clock = vi.spyOn(Date, "now");
      other.exec("BEGIN IMMEDIATE");
      for (const elapsed of [0, BUSY_OUTAGE_MS / 2, BUSY_OUTAGE_MS, BUSY_OUTAGE_MS * 2]) {
        clock.mockReturnValue(start + elapsed);
        expect(await skippableWrite(temp.db, writing(temp.db, "CREATE TABLE v (x)"))).toBe(false);
        if (elapsed === BUSY_OUTAGE_MS / 2) expect(logged).toHaveBeenCalledTimes(2);
      }
      clock.mockRestore();
      other.exec("ROLLBACK");
      expect(await skippableWrite(temp.db, writing(temp.db, "CREATE TABLE u (x)"))).toBe(true);
      expect(logged.mock.calls.map(([line]) => String(line).replace(/\. Until .*/, ""))).toEqual([
        `storage: a write to ${temp.path} failed: the database cannot be written (a read-only file or folder; check its permissions): nothing was changed`,
        `storage: writes to ${temp.path} work again.`,
        `storage: a write to ${temp.path} failed: the database is locked by another process (an import or a backup?): nothing was changed; try again in a minute`,
        `storage: writes to ${temp.path} work again.`,
      ]);
      // Anything else is a bug, not a storage failure: thrown.
      await expect(skippableWrite(temp.db, writing(temp.db, "NOT SQL"))).rejects.toThrow(/syntax error/);
    } finally {
      logged.mockRestore();
      readOnly.$client.close();
    }
  });
});
