import { afterAll, beforeAll } from "vitest";
import type { AppDatabase } from "@/db/client";
import { pgliteDatabase } from "./pglite";
import { tempDatabase } from "./temp-db";

/** The app's database on SQLite and on PostgreSQL (PGlite), for `describe.each`. */
export const SQLITE_AND_PGLITE = [
  { engine: "SQLite", open: () => Promise.resolve(tempDatabase()) },
  { engine: "PostgreSQL (PGlite)", open: async () => ({ db: await pgliteDatabase(), close: () => {} }) },
];

/** Opens the describe block's database before its tests and closes it after them; the getter gives it. */
export function blockDatabase(open: (typeof SQLITE_AND_PGLITE)[number]["open"]): () => AppDatabase {
  let db: AppDatabase | undefined;
  let close: () => void = () => {};
  beforeAll(async () => {
    ({ db, close } = await open());
  }, 60_000);
  afterAll(async () => {
    await db?.$engine.close();
    close();
  });
  return () => db!;
}
