// `npm start` with continuous backup (LITESTREAM_REPLICA_URL or LITESTREAM_CONFIG): this process starts
// `litestream replicate` on the database and, beside it, this same command as the server. On SIGTERM or
// SIGINT it stops the server first, then, once Litestream has had the time to copy the last writes,
// Litestream, and exits as the server did. (Under `litestream replicate -exec` the server's exit code
// is lost: 0.3.13 exits 1 when its last checkpoint fails at shutdown, after a busy second.) Should
// Litestream end on its own, the server is stopped too and this process exits 1, so that a supervisor
// restarts both rather than serve without a backup. Both run in process groups of their own, so that
// a Ctrl-C in a terminal reaches each once, from here (a second SIGINT ends a server mid-shutdown).
import { spawn, type ChildProcess } from "node:child_process";
import { constants } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { litestreamBinary, litestreamMissingMessage, SERVER_BESIDE_LITESTREAM, type ContinuousBackup } from "@/lib/sqlite/litestream";

/** The arguments of `litestream replicate` for this database. */
function replicateArguments(backup: ContinuousBackup, databasePath: string): string[] {
  return "replicaUrl" in backup ? ["replicate", databasePath, backup.replicaUrl] : ["replicate", "-config", backup.configPath];
}

/**
 * How long Litestream runs on after the server stopped: its next regular pass (the 1 s monitor, then
 * the 1 s sync interval) copies the last writes. Its final pass at SIGTERM would too, but in 0.3.13
 * that pass can race its replica's own sync and panic ("generation name required") before copying:
 * stopped right after a commit, 13 of 31 runs of a test here lost it, 0 of 24 with this wait.
 */
const LAST_COPY_WAIT_MS = 2_500;

const exitCodeOf = (code: number | null, signal: NodeJS.Signals | null) => code ?? 128 + (signal ? constants.signals[signal] : 0);

function logLine(fields: Record<string, unknown>): void {
  console.log(JSON.stringify({ time: new Date().toISOString(), level: "info", ...fields }));
}

function stopped(child: ChildProcess): Promise<number> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(exitCodeOf(child.exitCode, child.signalCode));
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve(exitCodeOf(code, signal))));
}

export function serveWithLitestream(backup: ContinuousBackup, databasePath: string): void {
  const binary = litestreamBinary();
  const litestream = spawn(binary, replicateArguments(backup, databasePath), { stdio: "inherit", detached: true });
  litestream.once("error", (error) => {
    console.error(`error: ${litestreamMissingMessage(binary, error)}`);
    process.exit(1);
  });
  litestream.once("spawn", () => {
    const server = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { env: { ...process.env, [SERVER_BESIDE_LITESTREAM]: "1" }, stdio: "inherit", detached: true });
    logLine({ msg: "continuous backup started", litestream_pid: litestream.pid, server_pid: server.pid });
    let stopping = false;
    let litestreamFailed = false;
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      process.on(signal, () => {
        stopping = true;
        server.kill(signal);
      });
    }
    void stopped(server).then(async (code) => {
      stopping = true;
      await Promise.race([sleep(LAST_COPY_WAIT_MS), stopped(litestream)]);
      litestream.kill("SIGTERM");
      await stopped(litestream);
      process.exit(litestreamFailed ? 1 : code);
    });
    void stopped(litestream).then((code) => {
      if (stopping) return;
      litestreamFailed = true;
      logLine({ level: "error", msg: `litestream exited (${code}): stopping the server, which must not run without its backup` });
      server.kill("SIGTERM");
    });
  });
}
