import { statSync } from "node:fs";
import { afterEach, beforeEach, expect, it } from "vitest";
import { WAL_SIZE_LIMIT_BYTES } from "@/db/client";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

// A big transaction (an import of 600,000 rows) grows the -wal to its size; without journal_size_limit
// the file keeps that size for good, though SQLite reuses it from its start after a checkpoint.

let temp: TempDatabase;
beforeEach(() => (temp = tempDatabase()));
afterEach(() => temp.close());

it("the -wal is cut back to its limit once a transaction larger than it has been checkpointed", () => {
  const sqlite = temp.db.$client;
  const megabytes = (2 * WAL_SIZE_LIMIT_BYTES) / 1024 / 1024;
  sqlite.exec(`CREATE TABLE ballast (b BLOB); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${megabytes * 256}) INSERT INTO ballast SELECT randomblob(3900) FROM n`);
  const wal = `${temp.path}-wal`;
  expect(statSync(wal).size).toBeGreaterThan(2 * WAL_SIZE_LIMIT_BYTES);
  // The commit's automatic checkpoint copied it all into the database: the next write starts the -wal over.
  sqlite.exec("INSERT INTO ballast VALUES (1)");
  expect(statSync(wal).size).toBeLessThanOrEqual(WAL_SIZE_LIMIT_BYTES);
});
