import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { env } from "@/lib/core/env";
import { sharedLimitStore } from "@/lib/domain/limits/shared";

// One import at a time per database, all its servers and worker processes together: the database has
// one writer (SQLite's write lock; PostgreSQL's write transactions take one lock too, db/pg/engine.ts),
// and an import holds it until it commits. On SQLite (one machine) the lock is a file beside the
// database, created only if absent, that names the process holding it; one left by a process that is
// gone (killed mid-import) is taken over. On PostgreSQL it is a lease in the database
// (lib/domain/limits/leases.ts), renewed while the import runs and lapsing a minute after a server died holding it.

/** How long the import lock outlives a server that died holding it (PostgreSQL). */
const IMPORT_LEASE_MS = 60_000;

function holderIsAlive(path: string): boolean {
  const pid = Number(readFileSync(path, "utf8"));
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes the import lock of the database at `databasePath`: its release (idempotent), or null while another import holds it. */
export function takeImportLock(databasePath: string): (() => void) | null {
  const path = `${databasePath}-import.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(path, String(process.pid), { flag: "wx" });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        rmSync(path, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      try {
        if (holderIsAlive(path)) return null;
      } catch (readError) {
        // Removed meanwhile by its holder: try again.
        if ((readError as NodeJS.ErrnoException).code !== "ENOENT") throw readError;
        continue;
      }
      rmSync(path, { force: true });
    }
  }
  return null;
}

/** The import lock of the app's database, wherever it is kept: its release (idempotent), or null while another import holds it. */
export async function takeDatabaseImportLock(log: (message: string) => void = console.error): Promise<(() => void) | null> {
  const shared = sharedLimitStore();
  if (!shared) return takeImportLock(env().DATABASE_PATH);
  const release = await shared.hold("import", IMPORT_LEASE_MS);
  return release && (() => void release().catch((error: unknown) => log(`import: the import lock was not released (it lapses within ${IMPORT_LEASE_MS / 1000} s): ${String(error)}`)));
}
