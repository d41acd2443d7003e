import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "@/db/client";

/** A freshly migrated SQLite file of its own for one test file. */
export function temporaryDatabase() {
  return openDatabase(join(mkdtempSync(join(tmpdir(), "waitlist-unit-")), "test.db"));
}
