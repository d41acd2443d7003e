import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "@/db/client";
import { keyFileOf } from "@/db/master-key";
import { DAY_MS } from "@/lib/core/time";
import { startSqliteBulkInsert } from "@/lib/domain/signups/bulk-insert";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { copyDatabaseFile, type Dataset } from "./dataset";
import { importFileSignups } from "./import-file";

export interface TiedDataset {
  /** A working copy of the bench database with one more waitlist. */
  path: string;
  /** That waitlist: as many signups as the big one, every one with the same created_at. */
  tiedWaitlistId: string;
}

/**
 * The bench database plus a waitlist of `dataset.bigCount` signups that share one created_at, as the
 * import of a file without created_at (the common CSV of addresses) writes them: the import file's
 * own signups, through the import's bulk writer, at one instant. A file of its own, so that the other
 * scenarios keep measuring the dataset they always did; cached next to it (and removed with it).
 */
export async function prepareTiedDataset(dataset: Dataset, workDir: string): Promise<TiedDataset> {
  const cachedPath = dataset.cachedPath.replace(/\.db$/, "-tied.db");
  const idPath = `${cachedPath}.json`;
  if (!existsSync(cachedPath) || !existsSync(idPath)) {
    const building = `${cachedPath}.building-${process.pid}`;
    copyDatabaseFile(dataset.cachedPath, building);
    const db = openDatabase(building);
    const sqlite = db.$client;
    sqlite.pragma("journal_mode = MEMORY");
    sqlite.pragma("synchronous = OFF");
    const tiedWaitlistId = (await createWaitlist({ name: "Imported addresses", website: "https://imported.example.com" }, db)).id;
    const importedAt = dataset.spanEnd - DAY_MS;
    sqlite.transaction(() => {
      const bulk = startSqliteBulkInsert(tiedWaitlistId, db);
      for (const signup of importFileSignups(dataset.bigCount)) bulk.add(signup, importedAt);
      bulk.finish();
    })();
    sqlite.pragma("journal_mode = WAL");
    sqlite.close();
    renameSync(building, cachedPath);
    if (existsSync(keyFileOf(building))) renameSync(keyFileOf(building), keyFileOf(cachedPath));
    rmSync(`${building}-wal`, { force: true });
    rmSync(`${building}-shm`, { force: true });
    writeFileSync(idPath, JSON.stringify({ tiedWaitlistId }));
  }
  const { tiedWaitlistId } = JSON.parse(readFileSync(idPath, "utf8")) as { tiedWaitlistId: string };
  const path = join(workDir, "bench-tied.db");
  copyDatabaseFile(cachedPath, path);
  return { path, tiedWaitlistId };
}
