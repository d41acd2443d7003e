import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { waitlists } from "@/db/schema";
import { preparedSql } from "@/lib/store/statements";
import { transaction, writeTransaction } from "@/lib/store/transaction";
import { tempDatabase } from "@/tests/support/temp-db";

const temp = tempDatabase();
const db = temp.db;
afterAll(() => temp.close());

const names = async () => (await db.select({ name: waitlists.name }).from(waitlists).orderBy(waitlists.name)).map((row) => row.name);
const insert = (name: string) => db.insert(waitlists).values({ id: `wl_${name}`, name, website: "https://t.example", createdAt: new Date() }).run();
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

beforeAll(async () => {
  await db.delete(waitlists).run();
});

describe("transactions on one connection", () => {
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
    expect(db.$client.inTransaction).toBe(false);
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
    // Both wait for the transaction's end: they must see neither its uncommitted row nor run inside it.
    const [builder, raw] = await Promise.all([
      names().then((rows) => (order.push(`builder read, in a transaction: ${db.$client.inTransaction}`), rows)),
      outside.get().then((row) => (order.push(`raw read, in a transaction: ${db.$client.inTransaction}`), row!.n)),
      held.catch(() => undefined),
    ]);
    expect(builder).toEqual([]);
    expect(raw).toBe(0);
    expect(order[0]).toBe("transaction wrote, waiting");
    expect(order.slice(1).sort()).toEqual(["builder read, in a transaction: false", "raw read, in a transaction: false"]);
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
    expect(steps).toEqual(["first begins", "first ends", "second begins", "second ends", "third begins", "third ends"]);
    expect(await names()).toEqual(["first", "second", "third"]);
    await db.delete(waitlists).run();
  });

  it("gives Drizzle's run() the rows changed and the inserted row id, as every engine does", async () => {
    const inserted = await insert("counted");
    expect(inserted.changes).toBe(1);
    expect(inserted.lastInsertRowid).toBeGreaterThan(0);
    const deleted = await db.delete(waitlists).run();
    expect(deleted.changes).toBe(1);
  });

  it("fails a statement with the engine's own error, which does not repeat the statement's values", async () => {
    await insert("twice");
    const error = await insert("twice").then(
      () => undefined,
      (failure: unknown) => failure as Error,
    );
    expect(error).toMatchObject({ code: "SQLITE_CONSTRAINT_PRIMARYKEY" });
    expect(error?.message).not.toContain("wl_twice");
    await db.delete(waitlists).run();
  });
});
