import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppDatabase } from "@/db/client";
import { waitlists } from "@/db/schema";
import { storageFailureOf } from "@/lib/core/storage-failure";
import { transaction } from "@/lib/store/transaction";
import { pgliteDatabase } from "@/tests/support/pglite";

const failure = (code: string) => storageFailureOf(Object.assign(new Error("x"), { code }));

describe("storageFailureOf", () => {
  it("words SQLite's and PostgreSQL's codes for the same cause alike", () => {
    expect([failure("SQLITE_BUSY_SNAPSHOT"), failure("55P03")].map((each) => each?.cause)).toEqual(["busy", "busy"]);
    expect([failure("SQLITE_FULL"), failure("53100")].map((each) => each?.cause)).toEqual(["full", "full"]);
    expect([failure("SQLITE_READONLY_DBMOVED"), failure("25006")].map((each) => each?.cause)).toEqual(["read-only", "read-only"]);
    expect(failure("58030")?.cause).toBe("io");
  });

  it("says a database server out of reach is one, in one line that says nothing was changed", () => {
    for (const code of ["08006", "08001", "57P01", "57P03", "CONNECTION_CLOSED", "ECONNREFUSED"]) expect(failure(code)?.cause).toBe("unreachable");
    expect(failure("57P01")?.message).toMatch(/^the database server cannot be reached .*: nothing was changed; try again in a minute$/);
  });

  it("leaves every other error alone (a bug, a broken constraint, a name of Object's)", () => {
    for (const code of ["23505", "42601", "SQLITE_CONSTRAINT_UNIQUE", "constructor", "toString"]) expect(failure(code)).toBeUndefined();
    expect(storageFailureOf(new Error("no code"))).toBeUndefined();
  });
});

describe("storageFailureOf, on PostgreSQL's own error", () => {
  let db: AppDatabase;
  beforeAll(async () => {
    db = await pgliteDatabase();
  }, 60_000);
  afterAll(() => db.$engine.close());

  it("knows a write refused by a read-only database (a standby)", async () => {
    const refused = await transaction(db, async () => {
      await db.run("SET TRANSACTION READ ONLY");
      await db.insert(waitlists).values({ id: "wl_ro", name: "Read only", website: "https://ro.example", createdAt: new Date() }).run();
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(storageFailureOf(refused)?.cause).toBe("read-only");
    expect(await db.select().from(waitlists)).toEqual([]);
  });
});
