import { execFileSync } from "node:child_process";
import { statSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { checkpointPassive, leaveCheckpointsToCheckpointer } from "@/lib/sqlite/background-checkpoint";
import { tempDatabase, type TempDatabase } from "../../../support/temp-db";

let temp: TempDatabase | undefined;
afterEach(() => temp?.close());

/** Writes about `pages` pages of 4 KB in one transaction. */
function fill(database: TempDatabase, pages: number): void {
  database.db.$client.exec("CREATE TABLE IF NOT EXISTS filler (x BLOB)");
  const insert = database.db.$client.prepare("INSERT INTO filler VALUES (randomblob(4000))");
  database.db.$client.transaction(() => {
    for (let row = 0; row < pages; row++) insert.run();
  })();
}

describe("checkpoints apart from the writers", () => {
  it("a writer that leaves them to the checkpointer does not checkpoint at SQLite's 1,000 pages; one passive checkpoint copies every page", () => {
    temp = tempDatabase();
    leaveCheckpointsToCheckpointer(temp.db);
    expect(temp.db.$client.pragma("wal_autocheckpoint", { simple: true })).toBe(10_000);
    const before = statSync(temp.path).size;
    fill(temp, 3_000);
    expect(statSync(temp.path).size).toBe(before);
    const { walPages, copiedPages } = checkpointPassive(temp.db);
    expect(walPages).toBeGreaterThan(3_000);
    expect(copiedPages).toBe(walPages);
    expect(statSync(temp.path).size).toBeGreaterThan(before + 3_000 * 4_000);
  });

  it("the checkpointer thread copies a writer's pages into the database file within its next ticks", () => {
    temp = tempDatabase();
    const output = execFileSync(process.execPath, ["--import", "tsx", "tests/unit/fixtures/checkpointer-child.ts"], {
      encoding: "utf8",
      timeout: 30_000,
      env: { ...process.env, DATABASE_PATH: temp.path },
    });
    const { beforeThread, afterThread, autocheckpoint } = JSON.parse(output) as { beforeThread: number; afterThread: number; autocheckpoint: number };
    expect(autocheckpoint).toBe(10_000);
    expect(afterThread - beforeThread).toBeGreaterThan(3_000 * 4_000);
  }, 40_000);
});
