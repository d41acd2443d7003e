import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, type AppDatabase } from "@/db/client";

export interface TempDatabase {
  db: AppDatabase;
  path: string;
  close(): void;
}

/** A freshly migrated SQLite file in its own temporary folder. */
export function tempDatabase(): TempDatabase {
  const dir = mkdtempSync(join(tmpdir(), "waitlist-unit-"));
  const path = join(dir, "test.db");
  const db = openDatabase(path);
  return {
    db,
    path,
    close() {
      db.$client.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
