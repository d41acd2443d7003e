// `npm start` with continuous backup (LITESTREAM_REPLICA_URL or LITESTREAM_CONFIG): this process starts
// `litestream replicate -exec "<this same command>"`, and Litestream starts the server as its child,
// replicates the database while it runs, stops it on a signal and syncs once more before it exits.
// Litestream runs in a process group of its own, so that a Ctrl-C in a terminal reaches the server
// once, through Litestream, and not a second time from the terminal (a second SIGINT ends a server
// mid-shutdown). This process forwards SIGTERM and SIGINT to it and exits as it does.
import { spawn } from "node:child_process";
import { constants } from "node:os";
import { litestreamBinary, litestreamMissingMessage, UNDER_LITESTREAM, type ContinuousBackup } from "@/lib/sqlite/litestream";

/** The command line of this process, as one string for Litestream's -exec (which splits it like a shell). */
function thisCommand(): string {
  return [process.execPath, ...process.execArgv, ...process.argv.slice(1)].map((word) => `"${word.replace(/(["\\$`])/g, "\\$1")}"`).join(" ");
}

/** The arguments of `litestream replicate` for this server. */
export function replicateArguments(backup: ContinuousBackup, databasePath: string, exec: string): string[] {
  return "replicaUrl" in backup ? ["replicate", "-exec", exec, databasePath, backup.replicaUrl] : ["replicate", "-config", backup.configPath, "-exec", exec];
}

export function serveUnderLitestream(backup: ContinuousBackup, databasePath: string): void {
  const binary = litestreamBinary();
  const litestream = spawn(binary, replicateArguments(backup, databasePath, thisCommand()), {
    env: { ...process.env, [UNDER_LITESTREAM]: "1" },
    stdio: "inherit",
    detached: true,
  });
  litestream.once("error", (error) => {
    console.error(`error: ${litestreamMissingMessage(binary, error)}`);
    process.exit(1);
  });
  litestream.once("spawn", () => {
    console.log(JSON.stringify({ time: new Date().toISOString(), level: "info", msg: "litestream started", pid: litestream.pid }));
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => litestream.kill(signal));
  litestream.once("exit", (code, signal) => process.exit(code ?? 128 + (signal ? constants.signals[signal] : 0)));
}
