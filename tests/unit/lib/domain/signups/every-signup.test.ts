import { afterAll, describe, expect, it } from "vitest";
import type { AppDatabase } from "@/db/client";
import { startBulkInsert } from "@/lib/domain/signups/bulk-insert";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { writeTransaction } from "@/lib/store/transaction";
import { pgliteDatabase } from "@/tests/support/pglite";
import { tempDatabase } from "@/tests/support/temp-db";

// A status action on a whole filter (limit -1: "select all matching" in the dashboard, the CLI's
// default) changes every signup on either engine: SQLite reads LIMIT -1 as none, PostgreSQL refuses a
// negative LIMIT, so the dialect spells it for each.

const closers: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
});

const engines: [string, () => Promise<AppDatabase>][] = [
  [
    "SQLite",
    () => {
      const sqlite = tempDatabase();
      closers.push(() => sqlite.close());
      return Promise.resolve(sqlite.db);
    },
  ],
  [
    "PostgreSQL",
    async () => {
      const pg = await pgliteDatabase();
      closers.push(() => pg.$engine.close());
      return pg;
    },
  ],
];

describe.each(engines)("every signup of a filter (limit -1), on %s", (_engine, open) => {
  it("is invited (the waiting, in line) and then withdrawn (the others, oldest first)", async () => {
    const db = await open();
    const { id: waitlistId } = await createWaitlist({ name: "Everyone", website: "https://everyone.example" }, db);
    await writeTransaction(db, async () => {
      const bulk = startBulkInsert(waitlistId, db);
      await bulk.add(["a", "b", "c"].map((name, index) => ({ email: `${name}@example.com`, verified: true, referral: false, customInputs: "[]", createdAt: Date.UTC(2026, 0, 1 + index) })), Date.now());
      await bulk.finish();
    });
    const selection = { scope: { waitlistId }, limit: -1 };
    expect((await applyStatusAction("cli", { action: "invite", selection }, db)).changed).toBe(3);
    expect((await applyStatusAction("cli", { action: "withdraw", selection }, db)).changed).toBe(3);
  });
});
