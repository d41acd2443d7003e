import { beforeEach, describe, expect, it } from "vitest";
import type { AppDatabase } from "@/db/client";
import { takeSenderLease } from "@/lib/domain/deliveries/sending";
import { blockDatabase, SQLITE_AND_PGLITE } from "@/tests/support/each-engine";

// A newly migrated database has the rows of the delivery sender's and the scheduler's leases: the
// lease is only ever updated, so on a database without them (PostgreSQL's baseline) nothing was
// fanned out, sent or scheduled.

describe.each(SQLITE_AND_PGLITE)("leases of a new database: $engine", ({ open }) => {
  const database = blockDatabase(open);
  let db!: AppDatabase;
  beforeEach(() => {
    db = database();
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
