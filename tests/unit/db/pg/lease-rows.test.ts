import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppDatabase } from "@/db/client";
import { takeSenderLease } from "@/lib/domain/deliveries/sending";
import { pgliteDatabase } from "@/tests/support/pglite";
import { tempDatabase } from "@/tests/support/temp-db";

// A newly migrated database has the rows of the delivery sender's and the scheduler's leases: the
// lease is only ever updated, so on a database without them (PostgreSQL's baseline) nothing was
// fanned out, sent or scheduled.

const ENGINES = [
  { engine: "SQLite", open: () => Promise.resolve(tempDatabase()) },
  { engine: "PostgreSQL (PGlite)", open: async () => ({ db: await pgliteDatabase(), close: () => {} }) },
];

describe.each(ENGINES)("leases of a new database: $engine", ({ open }) => {
  let db!: AppDatabase;
  let close: () => void = () => {};
  beforeAll(async () => {
    ({ db, close } = await open());
  }, 60_000);
  afterAll(async () => {
    await db.$engine.close();
    close();
  });

  it("the first sender and the first scheduler take their lease; another holder waits until it lapses", async () => {
    const now = Date.UTC(2026, 0, 1);
    for (const name of ["sender", "scheduler"] as const) {
      expect(await takeSenderLease("first", 30_000, now, db, name)).toBe(true);
      expect(await takeSenderLease("second", 30_000, now + 1, db, name)).toBe(false);
      expect(await takeSenderLease("second", 30_000, now + 30_001, db, name)).toBe(true);
    }
  });
});
