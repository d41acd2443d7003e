import type { AppDatabase } from "@/db/client";
import { storageFailureOf, type StorageFailure } from "@/lib/core/storage-failure";
import { onItsTurn } from "@/lib/store/connection";
import { withoutBusyWait } from "./busy";

/**
 * Why the database refuses writes (a read-only file), found by a write that is rolled back before it
 * reaches the disk; undefined when it takes them, or when another process holds the write lock (that
 * says nothing about the file). A full disk shows only when a write reaches it, so not here.
 */
export async function writeRefusal(db: AppDatabase): Promise<StorageFailure | undefined> {
  try {
    await onItsTurn(db, (sqlite) =>
      withoutBusyWait(db, () => {
        sqlite.exec("BEGIN IMMEDIATE");
        try {
          sqlite.exec("CREATE TABLE write_probe (x)");
        } finally {
          sqlite.exec("ROLLBACK");
        }
      }),
    );
    return undefined;
  } catch (error) {
    const failure = storageFailureOf(error);
    if (!failure) throw error;
    return failure.cause === "busy" ? undefined : failure;
  }
}
