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
  /** The moment restored, when not the latest (`--at`, or an earlier one when the latest failed its check). */
  as_of?: string;
  /** What PRAGMA integrity_check said of the latest state, when it failed and an earlier one was restored. */
  latest_failed_integrity_check?: string;
}

const run = promisify(execFile);

/** How many earlier moments a restore tries when the latest copy fails its check. */
const EARLIER_ATTEMPTS = 30;

/** Runs `litestream restore` of `source` into `partial` (as of `at`, or the latest). */
async function litestreamRestore(binary: string, partial: string, source: string[], replica: string, at?: Date): Promise<void> {
  for (const suffix of ["", "-wal", "-shm", ".tmp", ".tmp-wal", ".tmp-shm"]) rmSync(partial + suffix, { force: true });
  try {
    await run(binary, ["restore", "-o", partial, ...(at ? ["-timestamp", at.toISOString()] : []), ...source], { maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stderr?: string };
    if (failure.code === "ENOENT" || failure.code === "EACCES") throw new AppError("unavailable", litestreamMissingMessage(binary, failure));
    const said = failure.stderr?.trim().split("\n").at(-1) ?? failure.message;
    const why = /no (matching )?backups? (found|available)|no generations? found|no snapshots? available/i.test(said) ? `no backup found in ${replica}` : `Litestream could not restore from ${replica}: ${said}`;
    throw new AppError("unavailable", `${why}; nothing was written`);
  }
}

/** The restored file's problem (PRAGMA integrity_check), or its counts when it is sound. */
function checked(partial: string): { problem: string } | { waitlists: number; signups: number } {
  const restored = new Database(partial);
  try {
    const integrity = restored.pragma("integrity_check", { simple: true });
    if (integrity !== "ok") return { problem: String(integrity) };
    const count = (table: string) => (restored.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return { waitlists: count("waitlists"), signups: count("signups") };
  } finally {
    restored.close();
  }
}

/** The moments the replica's WAL segments were written (`litestream wal`), newest first, to the second. */
async function segmentTimes(binary: string, source: string[]): Promise<Date[]> {
  const { stdout } = await run(binary, ["wal", ...source], { maxBuffer: 64 * 1024 * 1024 });
  const times = new Set(stdout.split("\n").flatMap((line) => /\s(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)\s*$/.exec(line)?.[1] ?? []));
  return [...times].map((time) => new Date(time)).sort((a, b) => b.getTime() - a.getTime());
}

/**
 * Restores the replica into a new file at `input.to`. Litestream 0.3.13 may rebuild the latest state
 * as a file that fails PRAGMA integrity_check (benbjohnson/litestream#582). Here that came at least in
 * part from the app cutting the WAL back behind Litestream's checkpoint, which it no longer does
 * (db/client.ts); other causes are reported, so the restore then steps back through the moments its
 * WAL segments were written until one passes, and says how far back it went (`as_of`).
 */
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
    await litestreamRestore(binary, partial, source, replica, input.at);
    let result = checked(partial);
    let asOf = input.at;
    const firstProblem = "problem" in result ? result.problem : undefined;
    if (firstProblem !== undefined) {
      const latest = input.at?.getTime() ?? Infinity;
      for (const moment of (await segmentTimes(binary, source)).filter((time) => time.getTime() < latest).slice(0, EARLIER_ATTEMPTS)) {
        await litestreamRestore(binary, partial, source, replica, moment);
        result = checked(partial);
        asOf = moment;
        if (!("problem" in result)) break;
      }
    }
    if ("problem" in result) throw new AppError("unavailable", `the database restored from ${replica} failed PRAGMA integrity_check (${firstProblem}), and so did it as of the ${EARLIER_ATTEMPTS} moments before; nothing was written`);
    renameSync(partial, path);
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    return { path, replica, bytes: statSync(path).size, ...result, seconds, ...(asOf ? { as_of: asOf.toISOString() } : {}), ...(firstProblem ? { latest_failed_integrity_check: firstProblem } : {}) };
  } finally {
    // Litestream restores into `<partial>.tmp` first, and leaves its -wal and -shm.
    for (const suffix of ["", "-wal", "-shm", "-journal", ".tmp", ".tmp-wal", ".tmp-shm"]) rmSync(partial + suffix, { force: true });
  }
}
