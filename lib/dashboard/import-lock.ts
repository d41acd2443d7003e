import { readFileSync, rmSync, writeFileSync } from "node:fs";

// One import at a time per server, all its worker processes together: SQLite has one writer, and an
// import holds it until it commits. The lock is a file beside the database, created only if absent,
// that names the process holding it; one left by a process that is gone (killed mid-import) is taken over.

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
