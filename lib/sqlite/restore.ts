import { execFile } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { AppError } from "@/lib/core/errors";
import { replicaUrlForDisplay } from "@/lib/core/continuous-backup";
import { partialPathOf, removeDeadPartials } from "./backup-destination";
import { litestreamBinary, litestreamMissingMessage, type ContinuousBackup } from "./litestream";

// `db restore`: rebuilds the database from Litestream's replica (./litestream.ts) into a new file. The
// replica is restored beside the destination (partialPathOf), checked with PRAGMA integrity_check and
// renamed into place, so the destination is never a half-written file; an existing destination is
// never replaced (a live database would lose its WAL's last commits, and its readers their file).

export interface RestoreInput {
  /** The replica, or the operator's Litestream config and the database path it names. */
  from: ContinuousBackup;
  /** The database path as the config names it (used with a config only). */
  databasePath: string;
  /** Where to write the restored database; must not exist. */
  to: string;
  /** Restore as of this moment (Litestream's -timestamp) instead of the latest. */
  at?: Date;
}

export interface RestoreResult {
  path: string;
  replica: string;
  bytes: number;
  waitlists: number;
  signups: number;
  seconds: number;
}

const run = promisify(execFile);

export async function restoreDatabase(input: RestoreInput): Promise<RestoreResult> {
  const path = resolve(input.to);
  const present = ["", "-wal", "-shm"].map((suffix) => path + suffix).filter((file) => existsSync(file));
  if (present.length > 0) {
    throw new AppError("invalid_parameter", `${present[0]} exists: a restore never replaces a database. Stop the app and move the file (with its -wal and -shm) away, or restore --to another file`, "to");
  }
  mkdirSync(dirname(path), { recursive: true });
  removeDeadPartials(dirname(path));
  const partial = partialPathOf(path);
  const replica = "replicaUrl" in input.from ? replicaUrlForDisplay(input.from.replicaUrl) : `the replicas of ${input.databasePath} in ${input.from.configPath}`;
  const source = "replicaUrl" in input.from ? [input.from.replicaUrl] : ["-config", input.from.configPath, input.databasePath];
  const binary = litestreamBinary();
  const started = performance.now();
  try {
    try {
      await run(binary, ["restore", "-o", partial, ...(input.at ? ["-timestamp", input.at.toISOString()] : []), ...source], { maxBuffer: 16 * 1024 * 1024 });
    } catch (error) {
      const failure = error as NodeJS.ErrnoException & { stderr?: string };
      if (failure.code === "ENOENT" || failure.code === "EACCES") throw new AppError("unavailable", litestreamMissingMessage(binary, failure));
      const said = failure.stderr?.trim().split("\n").at(-1) ?? failure.message;
      const why = /no (matching )?backups? (found|available)|no generations? found|no snapshots? available/i.test(said) ? `no backup found in ${replica}` : `Litestream could not restore from ${replica}: ${said}`;
      throw new AppError("unavailable", `${why}; nothing was written`);
    }
    const restored = new Database(partial);
    let counts: { waitlists: number; signups: number };
    try {
      const integrity = restored.pragma("integrity_check", { simple: true });
      if (integrity !== "ok") throw new AppError("unavailable", `the database restored from ${replica} failed PRAGMA integrity_check (${String(integrity)}); nothing was written`);
      const count = (table: string) => (restored.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
      counts = { waitlists: count("waitlists"), signups: count("signups") };
    } finally {
      restored.close();
    }
    renameSync(partial, path);
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    return { path, replica, bytes: statSync(path).size, ...counts, seconds };
  } finally {
    // Litestream restores into `<partial>.tmp` first, and leaves its -wal and -shm.
    for (const suffix of ["", "-wal", "-shm", "-journal", ".tmp", ".tmp-wal", ".tmp-shm"]) rmSync(partial + suffix, { force: true });
  }
}
