import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppDatabase } from "@/db/client";
import { openPostgres } from "@/db/pg/client";
import { appSecrets, waitlists } from "@/db/schema";
import { preparedSql } from "@/lib/store/statements";
import { startPostgres, type PostgresServer } from "@/tests/support/pg-server";
import { pgliteDatabase } from "@/tests/support/pglite";

// What the domain gets back from PostgreSQL is what it got from SQLite: numbers for 64-bit integers
// and sums, 1 or 0 for a comparison, JSON as its text, a blob as a Buffer; the builder's get, all,
// values and run in their SQLite shapes. On PGlite and on a real server through postgres.js.

let server: PostgresServer | undefined;
const DRIVERS = [
  { driver: "PGlite", open: () => pgliteDatabase() },
  {
    driver: "postgres.js on PostgreSQL 15",
    open: async () => {
      process.env.SECRETS_KEY ??= "b".repeat(64);
      server = await startPostgres();
      return openPostgres(server.url);
    },
  },
];

afterAll(async () => {
  await server?.stop();
});

describe.each(DRIVERS)("the PostgreSQL engine: $driver", ({ open }) => {
  let db: AppDatabase;
  beforeAll(async () => {
    db = await open();
    await db.insert(waitlists).values([
      { id: "wl_a", name: "A ?", website: "https://a.example", createdAt: new Date(Date.UTC(1969, 11, 31, 23, 59, 59, 999)) },
      { id: "wl_b", name: "B", website: "https://b.example", createdAt: new Date(Date.UTC(2026, 0, 2)) },
    ]);
  }, 60_000);
  afterAll(() => db.$engine.close());

  it("gives 64-bit integers, sums and averages as numbers, a comparison as 1 or 0, JSON as its text", async () => {
    const row = await preparedSql<Record<string, unknown>>(
      db,
      "test.engine.values",
      () => sql`SELECT count(*) AS n, sum(created_at) AS total, avg(created_at) AS mean, max(created_at) > 0 AS positive, '{"b":1,"a":[2]}'::json AS doc, ${sql.placeholder("big")}::bigint AS big FROM waitlists`,
    ).get({ big: 2 ** 53 - 1 });
    expect(row).toEqual({ n: 2, total: Date.UTC(2026, 0, 2) - 1, mean: (Date.UTC(2026, 0, 2) - 1) / 2, positive: 1, doc: '{"b":1,"a":[2]}', big: 2 ** 53 - 1 });
  });

  it("reads and writes the builder's rows as SQLite does: timestamps before 1970, a ? inside a value, a blob", async () => {
    expect(await db.select({ name: waitlists.name, createdAt: waitlists.createdAt }).from(waitlists).orderBy(waitlists.createdAt)).toEqual([
      { name: "A ?", createdAt: new Date(Date.UTC(1969, 11, 31, 23, 59, 59, 999)) },
      { name: "B", createdAt: new Date(Date.UTC(2026, 0, 2)) },
    ]);
    const bytes = Buffer.from([0, 1, 2, 250, 255]);
    await db.insert(appSecrets).values({ name: "test_blob", value: bytes });
    expect((await db.select({ value: appSecrets.value }).from(appSecrets).where(sql`${appSecrets.name} = ${"test_blob"}`).get())?.value).toEqual(bytes);
  });

  it("answers get, all, values and run in their SQLite shapes", async () => {
    const byName = db.select({ id: waitlists.id }).from(waitlists).where(sql`${waitlists.name} = ${sql.placeholder("name")}`).prepare();
    expect(await byName.get({ name: "B" })).toEqual({ id: "wl_b" });
    expect(await byName.get({ name: "none" })).toBeUndefined();
    expect(await byName.all({ name: "A ?" })).toEqual([{ id: "wl_a" }]);
    expect(await db.select({ id: waitlists.id, name: waitlists.name }).from(waitlists).orderBy(waitlists.id).values()).toEqual([
      ["wl_a", "A ?"],
      ["wl_b", "B"],
    ]);
    expect((await db.update(waitlists).set({ website: "https://c.example" }).run()).changes).toBe(2);
    expect((await db.delete(waitlists).where(sql`${waitlists.id} = 'nope'`).run()).changes).toBe(0);
  });
});
