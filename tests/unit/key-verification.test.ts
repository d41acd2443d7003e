import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { apiKeys } from "@/db/schema";
import { createApiKey, hashSecret, verifyApiKey } from "@/lib/domain/keys/queries";
import { tempDatabase, type TempDatabase } from "./temp-db";

let temp: TempDatabase;

beforeEach(() => {
  temp = tempDatabase();
});

afterEach(() => {
  vi.restoreAllMocks();
  temp.close();
});

describe("verifyApiKey", () => {
  it("looks keys up by the SHA-256 of what was presented: the guess itself is never compared", () => {
    const { key } = createApiKey({ name: "k", roles: ["waitlist:view"] }, temp.db);
    const lookups: { source: string; bound: unknown[] }[] = [];
    const prepare = temp.db.$client.prepare.bind(temp.db.$client);
    vi.spyOn(temp.db.$client, "prepare").mockImplementation(((source: string) => {
      const statement = prepare(source);
      const get = statement.get.bind(statement);
      statement.get = ((...bound: unknown[]) => (lookups.push({ source, bound }), get(...bound))) as typeof statement.get;
      return statement;
    }) as typeof prepare);
    // Guesses sharing 0 and 40 leading characters with the real key take the same path: one hash,
    // one indexed lookup of that hash, nothing found.
    for (const guess of [`wl_${"Z".repeat(43)}`, key.slice(0, 40) + "AAAAAA"]) {
      lookups.length = 0;
      expect(verifyApiKey(guess, "waitlist:view", temp.db)).toEqual({ ok: false, reason: "unauthenticated" });
      expect(lookups).toHaveLength(1);
      expect(lookups[0]!.source).toMatch(/"key_hash" = \?/);
      expect(lookups[0]!.bound).toEqual([hashSecret(guess)]);
    }
  });

  it("does not wait for another process's write lock to record last_used_at", () => {
    const { key, id } = createApiKey({ name: "k", roles: ["waitlist:view"] }, temp.db);
    const other = new Database(temp.path);
    other.exec("BEGIN IMMEDIATE");
    const started = performance.now();
    expect(verifyApiKey(key, "waitlist:view", temp.db).ok).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
    other.exec("ROLLBACK");
    other.close();
    const row = () => temp.db.select().from(apiKeys).all().find((candidate) => candidate.id === id)!;
    expect(row().lastUsedAt).toBeNull();
    // The busy timeout is back, and the next use records the time.
    expect(temp.db.$client.pragma("busy_timeout", { simple: true })).toBe(5000);
    expect(verifyApiKey(key, "waitlist:view", temp.db).ok).toBe(true);
    expect(row().lastUsedAt).not.toBeNull();
  });
});
