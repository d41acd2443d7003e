import { existsSync, mkdirSync, readdirSync, realpathSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import { AppError } from "@/lib/core/errors";

// The files SQLite keeps beside a database: replacing the live WAL loses its last commits.
const DATABASE_FILES = [
  { suffix: "", name: "the database itself" },
  { suffix: "-wal", name: "the database's write-ahead log" },
  { suffix: "-shm", name: "the database's shared-memory file" },
  { suffix: "-journal", name: "the database's rollback journal" },
];

/**
 * Checks where a backup of `databasePath` may be written, creates its missing parent folders, and
 * returns its absolute path. Refuses (and changes nothing for) the database and its companion
 * files, by any path or symlink that leads to them, a folder, and an existing file unless `force`.
 */
export function prepareBackupDestination(destination: string, databasePath: string, force = false): string {
  const path = resolve(destination);
  const target = realPath(path);
  for (const { suffix, name } of DATABASE_FILES) {
    const companions = [realPath(databasePath + suffix), realPath(databasePath) + suffix];
    if (companions.includes(target) || companions.some((companion) => sameExistingFile(companion, path))) {
      throw invalid(`the backup cannot replace ${name}${suffix ? ` (${databasePath}${suffix})` : ""}`);
    }
  }
  if (destination.endsWith("/") || destination.endsWith(sep) || (existsSync(path) && statSync(path).isDirectory())) {
    throw invalid(`${path} is a folder: give the backup a file name, e.g. ${join(path, "waitlist.db")}`);
  }
  if (existsSync(path) && !force) throw invalid(`${path} exists; pass --force to replace it`);
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (error) {
    throw invalid(`cannot create the folder ${dirname(path)}: ${(error as Error).message}`);
  }
  return path;
}

// A copy is written beside its destination as `.<name>.<pid>.partial` (and SQLite's `-journal` of it)
// and renamed into place when complete. A backup that was killed (SIGKILL, a power cut) cannot remove
// its own: the next one in that folder does, for every process that no longer runs (a killed
// `signups export --output` names its partial file the same way, and goes too).
const PARTIAL = /^\..+\.(\d+)\.partial(?:-journal|-wal|-shm)?$/;

/** Where the backup to `path` writes its copy until it is complete. */
export function partialPathOf(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.partial`);
}

/** The partial files (partialPathOf) of backups that died in `folder`; those of running processes stay. */
export function removeDeadPartials(folder: string): void {
  for (const name of readdirSync(folder)) {
    const pid = PARTIAL.exec(name)?.[1];
    if (pid !== undefined && !isRunning(Number(pid))) rmSync(join(folder, name), { force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The path with every symlink resolved, as far as it exists (a missing file: in its folder's real path). */
function realPath(path: string): string {
  try {
    return realpathSync(resolve(path));
  } catch {
    const parent = dirname(resolve(path));
    return parent === resolve(path) ? parent : join(realPath(parent), basename(path));
  }
}

/** Both exist and are one file (a hard link, or another spelling on a case-insensitive disk). */
function sameExistingFile(a: string, b: string): boolean {
  if (!existsSync(a) || !existsSync(b)) return false;
  const [first, second] = [statSync(a), statSync(b)];
  return first.dev === second.dev && first.ino === second.ino;
}

function invalid(message: string): AppError {
  return new AppError("invalid_parameter", message, "file");
}
