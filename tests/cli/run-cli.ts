import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** A temporary folder with a database path for the real CLI, plus files to import. */
export function cliSandbox() {
  const dir = mkdtempSync(join(tmpdir(), "waitlist-cli-"));
  const databasePath = join(dir, "cli.db");
  const cliArgs = (args: string[]) => ["--import", "tsx", "lib/cli/main.ts", ...args];
  const env = { ...process.env, DATABASE_PATH: databasePath, NODE_NO_WARNINGS: "1" };
  return {
    dir,
    databasePath,
    /** Runs `tsx lib/cli/main.ts ...args` as a subprocess on this sandbox's database. */
    run(...args: string[]): CliResult {
      return this.runWithEnv({}, ...args);
    },
    /** `run`, with more environment variables (such as NODE_OPTIONS). */
    runWithEnv(extra: Record<string, string>, ...args: string[]): CliResult {
      const result = spawnSync(process.execPath, cliArgs(args), { encoding: "utf8", env: { ...env, ...extra, DATABASE_PATH: databasePath } });
      return { status: result.status, stdout: result.stdout, stderr: result.stderr };
    },
    /** Starts the same subprocess without waiting for it: its pid, and its result once it exits. */
    start(...args: string[]): { pid: number; result: Promise<CliResult> } {
      return this.startWithEnv({}, ...args);
    },
    /** `start`, with more environment variables. */
    startWithEnv(extra: Record<string, string>, ...args: string[]): { pid: number; result: Promise<CliResult> } {
      const child = spawn(process.execPath, cliArgs(args), { env: { ...env, ...extra } });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
      const result = new Promise<CliResult>((resolve, reject) => {
        child.on("error", reject);
        child.on("close", (status) => resolve({ status, stdout, stderr }));
      });
      return { pid: child.pid!, result };
    },
    /** Runs a command with --json, expects success and returns the parsed object. */
    json<T = Record<string, unknown>>(...args: string[]): T {
      const result = this.run(...args, "--json");
      if (result.status !== 0) throw new Error(`${args.join(" ")} failed (${result.status}): ${result.stderr}`);
      return JSON.parse(result.stdout) as T;
    },
    file(name: string, content: string): string {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    },
    /** Every row of a table, read directly from the file (read-only). */
    rows(table: "signups" | "waitlists" | "api_keys" | "audit_log" | "webhook_endpoints" | "deliveries" | "invitation_emails" | "join_settings" | "join_logos" | "signup_milestones"): Record<string, unknown>[] {
      const db = new Database(databasePath, { readonly: true });
      try {
        return db.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all() as Record<string, unknown>[];
      } finally {
        db.close();
      }
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type CliSandbox = ReturnType<typeof cliSandbox>;

/** A failure prints exactly one line on stderr and nothing on stdout. */
export function expectOneLineError(result: CliResult): string {
  if (result.status === 0) throw new Error(`expected a failure, got success: ${result.stdout}`);
  const lines = result.stderr.trimEnd().split("\n");
  if (lines.length !== 1) throw new Error(`expected one stderr line, got:\n${result.stderr}`);
  if (result.stdout !== "") throw new Error(`expected no stdout, got: ${result.stdout}`);
  return lines[0]!;
}
