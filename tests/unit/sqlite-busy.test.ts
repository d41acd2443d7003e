import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/domain/api-keys";
import { getSessionFromToken, startSession } from "@/lib/domain/sessions";
import { skippableWrite, writeWhenUnlocked } from "@/lib/sqlite/busy";
import { tempDatabase, type TempDatabase } from "./temp-db";

// Another process holding the write lock (as `signups import` does until it commits) must neither
// block the server nor fail its requests.

let temp: TempDatabase;
let other: Database.Database;

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
  it("skippableWrite skips at once, and writes when the lock is free", () => {
    other.exec("BEGIN IMMEDIATE");
    const started = performance.now();
    expect(skippableWrite(temp.db, () => temp.db.$client.exec("CREATE TABLE t (x)"))).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
    other.exec("ROLLBACK");
    expect(skippableWrite(temp.db, () => temp.db.$client.exec("CREATE TABLE t (x)"))).toBe(true);
    expect(temp.db.$client.pragma("busy_timeout", { simple: true })).toBe(5000);
  });

  it("writeWhenUnlocked waits without blocking the event loop, then writes", async () => {
    const { id } = createApiKey({ name: "k", roles: ["waitlist:view"] }, temp.db);
    other.exec("BEGIN IMMEDIATE");
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    setTimeout(() => other.exec("COMMIT"), 300);
    const started = performance.now();
    const session = await startSession(id, temp.db);
    clearInterval(ticker);
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
    // The process kept running timers while it waited.
    expect(ticks).toBeGreaterThanOrEqual(10);
    expect(getSessionFromToken(session.token, temp.db)?.key.id).toBe(id);
  });

  it("writeWhenUnlocked gives up with the busy error after its deadline, and rethrows other errors", async () => {
    other.exec("BEGIN IMMEDIATE");
    await expect(writeWhenUnlocked(temp.db, () => temp.db.$client.exec("CREATE TABLE t (x)"), 100)).rejects.toMatchObject({ code: "SQLITE_BUSY" });
    other.exec("ROLLBACK");
    await expect(writeWhenUnlocked(temp.db, () => temp.db.$client.exec("NOT SQL"))).rejects.toMatchObject({ code: "SQLITE_ERROR" });
  });
});
