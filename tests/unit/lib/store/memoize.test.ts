import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppDatabase } from "@/db/client";
import { openPostgres } from "@/db/pg/client";
import { memoizeWhileUnchanged } from "@/lib/store/memoize";
import { sql } from "drizzle-orm";
import { transaction, writeTransaction } from "@/lib/store/transaction";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { tempDatabase } from "@/tests/support/temp-db";
import { pgliteDatabase } from "@/tests/support/pglite";
import { startPostgres, type PostgresServer } from "@/tests/support/pg-server";

// An aggregate is remembered while the database has not changed: another connection's commit or the
// connection's own write counts it again. On PostgreSQL a pool shares the cache, so a transaction that
// has written (and sees rows no one else does) neither reads nor fills it.

let server: PostgresServer | undefined;
const ENGINES = [
  { engine: "SQLite", postgres: false, open: () => Promise.resolve(tempDatabase().db) },
  { engine: "PGlite", postgres: true, open: () => pgliteDatabase() },
  {
    engine: "PostgreSQL 15",
    postgres: true,
    open: async () => {
      server = await startPostgres();
      return await openPostgres(server.url);
    },
  },
];
afterAll(async () => await server?.stop());

describe.each(ENGINES)("memoizeWhileUnchanged: $engine", ({ engine, open, postgres }) => {
  let db!: AppDatabase;
  beforeAll(async () => {
    process.env.SECRETS_KEY ??= "b".repeat(64);
    db = await open();
  }, 60_000);
  afterAll(async () => await db.$engine.close());

  it("remembers a value until a write, and counts again after it", async () => {
    let calls = 0;
    const compute = async () => ++calls;
    const now = Date.now();
    expect(await memoizeWhileUnchanged(db, "k", compute, now)).toBe(1);
    expect(await memoizeWhileUnchanged(db, "k", compute, now)).toBe(1);
    await createWaitlist({ name: "Changed", website: "https://changed.example" }, db);
    expect(await memoizeWhileUnchanged(db, "k", compute, now)).toBe(2);
    expect(await memoizeWhileUnchanged(db, "k", compute, now)).toBe(2);
    expect(await memoizeWhileUnchanged(db, "k", compute, now + 61_000)).toBe(3);
  });

  // Not on a real server: its WAL moves by itself now and then (autovacuum, standby snapshots), and two
  // asks at once that read two positions each count, rightly.
  it.skipIf(engine === "PostgreSQL 15")("shares a count under way with the callers that ask for it meanwhile; an error reaches them all and is not kept", async () => {
    let calls = 0;
    let finish!: (value: number) => void;
    const compute = () => (++calls, new Promise<number>((resolve) => (finish = resolve)));
    const asked = [memoizeWhileUnchanged(db, "shared", compute), memoizeWhileUnchanged(db, "shared", compute), memoizeWhileUnchanged(db, "shared", compute)];
    await expect.poll(() => calls).toBe(1);
    // The other two are waiting for it, not counting.
    await new Promise((resolve) => setTimeout(resolve, 20));
    finish(7);
    expect(await Promise.all(asked)).toEqual([7, 7, 7]);
    expect(calls).toBe(1);

    let failures = 0;
    const failing = async () => {
      failures++;
      await new Promise((resolve) => setTimeout(resolve, 20));
      throw new Error("count failed");
    };
    const results = await Promise.allSettled([memoizeWhileUnchanged(db, "failing", failing), memoizeWhileUnchanged(db, "failing", failing)]);
    expect(results.map((result) => result.status)).toEqual(["rejected", "rejected"]);
    expect(failures).toBe(1);
    await expect(memoizeWhileUnchanged(db, "failing", failing)).rejects.toThrow("count failed");
    expect(failures).toBe(2);
  });

  it("inside a transaction that wrote, counts what that transaction sees", async () => {
    let calls = 0;
    const compute = async () => ++calls;
    const now = Date.now();
    expect(await memoizeWhileUnchanged(db, "t", compute, now)).toBe(1);
    await writeTransaction(db, async () => {
      await createWaitlist({ name: "Inside", website: "https://inside.example" }, db);
      expect(await memoizeWhileUnchanged(db, "t", compute, now)).toBe(2);
      expect(await memoizeWhileUnchanged(db, "t", compute, now)).toBe(db.$engine.kind === "postgres" ? 3 : 2);
    });
  });

  it.runIf(postgres)("in a transaction whose snapshot may be older than the database (REPEATABLE READ), counts", async () => {
    let calls = 0;
    const compute = async () => ++calls;
    const now = Date.now();
    expect(await memoizeWhileUnchanged(db, "r", compute, now)).toBe(1);
    await transaction(db, async () => {
      await db.run(sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ`);
      expect(await memoizeWhileUnchanged(db, "r", compute, now)).toBe(2);
      expect(await memoizeWhileUnchanged(db, "r", compute, now)).toBe(3);
    });
    expect(await memoizeWhileUnchanged(db, "r", compute, now)).toBe(1);
  });
});
