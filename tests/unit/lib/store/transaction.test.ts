import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import type { AppDatabase } from "@/db/client";
import { waitlists } from "@/db/schema";
import { preparedSql } from "@/lib/store/statements";
import { transaction, writeTransaction } from "@/lib/store/transaction";
import { openPostgres } from "@/db/pg/client";
import { startPostgres } from "@/tests/support/pg-server";
import { pgliteDatabase } from "@/tests/support/pglite";
import { tempDatabase } from "@/tests/support/temp-db";

// The same expectations on each engine: SQLite's one connection, PostgreSQL on PGlite's (one
// connection too: its transactions take turns as SQLite's do), and a real PostgreSQL 15 through a
// pool (each transaction on a connection of its own; write transactions behind one lock).
const ENGINES = [
  { engine: "SQLite", shared: true, open: () => Promise.resolve(tempDatabase()), uniqueViolation: "SQLITE_CONSTRAINT_PRIMARYKEY" },
  { engine: "PostgreSQL (PGlite)", shared: true, open: async () => ({ db: await pgliteDatabase(), close: () => {} }), uniqueViolation: "23505" },
  {
    engine: "PostgreSQL 15 (postgres.js)",
    shared: false,
    open: async () => {
      process.env.SECRETS_KEY ??= "a".repeat(64);
      const server = await startPostgres();
      return { db: await openPostgres(server.url), close: () => server.stop() };
    },
    uniqueViolation: "23505",
  },
];

describe.each(ENGINES)("transactions: $engine", ({ shared, open, uniqueViolation }) => {
  let db!: AppDatabase;
  let close: () => void | Promise<void> = () => {};
  beforeAll(async () => {
    ({ db, close } = await open());
    await db.delete(waitlists).run();
  }, 60_000);
  afterAll(async () => {
    await db.$engine.close();
    await close();
  });
  /** Whether a transaction is open on the connection, where the engine can say (SQLite). */
  const inTransaction = () => (db.$engine.kind === "sqlite" ? db.$client.inTransaction : false);

  const names = async () => (await db.select({ name: waitlists.name }).from(waitlists).orderBy(waitlists.name)).map((row) => row.name);
  const insert = (name: string) => db.insert(waitlists).values({ id: `wl_${name}`, name, website: "https://t.example", createdAt: new Date() }).run();
  const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

  it("commits what the work wrote, and rolls everything back when it throws", async () => {
    await writeTransaction(db, async () => {
      await insert("kept");
    });
    await expect(
      writeTransaction(db, async () => {
        await insert("undone");
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    expect(await names()).toEqual(["kept"]);
    expect(inTransaction()).toBe(false);
    await db.delete(waitlists).run();
  });

  it("makes a nested transaction a savepoint: its failure undoes only its own writes", async () => {
    await writeTransaction(db, async () => {
      await insert("outer");
      await expect(
        transaction(db, async () => {
          await insert("inner");
          throw new Error("inner failed");
        }),
      ).rejects.toThrow("inner failed");
      await transaction(db, async () => {
        await insert("second");
      });
    });
    expect(await names()).toEqual(["outer", "second"]);
    await db.delete(waitlists).run();
  });

  it("keeps another caller's statements out of an open transaction, even across real waits", async () => {
    const order: string[] = [];
    const outside = preparedSql<{ n: number }>(db, "test.count-waitlists", () => sql`SELECT count(*) AS n FROM waitlists`);
    let reachedInside!: () => void;
    const inside = new Promise<void>((resolve) => (reachedInside = resolve));
    const held = writeTransaction(db, async () => {
      await insert("during");
      reachedInside();
      await tick();
      order.push("transaction wrote, waiting");
      await tick();
      throw new Error("undo it");
    });
    await inside;
    // They must see neither its uncommitted row nor run inside it; on a shared connection they wait for its end.
    const [builder, raw] = await Promise.all([
      names().then((rows) => (order.push(`builder read, in a transaction: ${inTransaction()}`), rows)),
      outside.get().then((row) => (order.push(`raw read, in a transaction: ${inTransaction()}`), row!.n)),
      held.catch(() => undefined),
    ]);
    expect(builder).toEqual([]);
    expect(raw).toBe(0);
    expect(order.filter((step) => step.includes("read")).sort()).toEqual(["builder read, in a transaction: false", "raw read, in a transaction: false"]);
    if (shared) expect(order[0]).toBe("transaction wrote, waiting");
  });

  it("runs two callers' transactions one after the other, never interleaved", async () => {
    const steps: string[] = [];
    const run = (name: string) =>
      writeTransaction(db, async () => {
        steps.push(`${name} begins`);
        await insert(name);
        await tick();
        steps.push(`${name} ends`);
      });
    await Promise.all([run("first"), run("second"), run("third")]);
    // Each one's steps next to each other; on a shared connection, in the order they were called.
    const pairs = [0, 2, 4].map((at) => [steps[at], steps[at + 1]]);
    expect(pairs.map(([begins, ends]) => ends === begins!.replace("begins", "ends"))).toEqual([true, true, true]);
    if (shared) expect(steps).toEqual(["first begins", "first ends", "second begins", "second ends", "third begins", "third ends"]);
    expect(await names()).toEqual(["first", "second", "third"]);
    await db.delete(waitlists).run();
  });

  it("runs a statement the work returns unawaited (a Drizzle builder, which runs when awaited) inside the transaction", async () => {
    // Before the fix it was awaited outside: on a shared connection it waited for the transaction's
    // own turn for ever; on a pool it ran on another connection, and with every connection lent to
    // such transactions, none answered.
    const inserted = await Promise.race([writeTransaction(db, () => insert("returned")), new Promise<never>((_, reject) => setTimeout(() => reject(new Error("no answer within 5 s")), 5_000))]);
    expect(inserted.changes).toBe(1);
    if (db.$engine.kind === "postgres") {
      // The write transaction's own lock is visible to its own statements only.
      const held = sql`SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()`;
      expect(await writeTransaction(db, () => db.values(held))).toEqual([[1]]);
      expect(await db.values(held)).toEqual([[0]]);
    }
    await db.delete(waitlists).run();
  });

  it("gives Drizzle's run() the rows changed, as every engine does", async () => {
    const inserted = await insert("counted");
    expect(inserted.changes).toBe(1);
    const deleted = await db.delete(waitlists).run();
    expect(deleted.changes).toBe(1);
  });

  it("fails a statement with the engine's own error, which does not repeat the statement's values", async () => {
    await insert("twice");
    const error = await insert("twice").then(
      () => undefined,
      (failure: unknown) => failure as Error,
    );
    expect(error).toMatchObject({ code: uniqueViolation });
    expect(error?.message).not.toContain("wl_twice");
    expect(inspect(error)).not.toContain("wl_twice");
    await db.delete(waitlists).run();
  });
});
