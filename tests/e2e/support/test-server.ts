import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, type AppDatabase } from "@/db/client";
import { openPostgres } from "@/db/pg/client";
import { freshPgDatabase } from "./pg-test-database";
import { nextCli } from "../../support/next-cli";

// A production server of its own (lib/server, the same build as the shared e2e server) for tests
// that need other settings (tiny rate limits), its own database, its stdout, or to kill it. With
// `bareNext`, Next.js's own `next start` on that build instead, without lib/server in front: for
// tests that hold our server's checks to what Next.js itself does.

const basePort = Number(process.env.E2E_PORT ?? 3100);

export interface TestServer {
  url: string;
  port: number;
  /** Its SQLite file: unused when `engine` is postgres. */
  databasePath: string;
  engine: "sqlite" | "postgres";
  /** The server's stdout so far, line by line. */
  stdout: string[];
  stderr: string[];
  process: ChildProcess;
  /** Opens the server's database in this process (migrated), for fixtures and checks. */
  db(): AppDatabase;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** A throw-away database path (the file and its -wal/-shm removed). */
export function freshDatabasePath(name: string): string {
  const path = join(tmpdir(), `waitlist-${name}-${basePort}.db`);
  for (const suffix of ["", "-wal", "-shm"]) rmSync(path + suffix, { force: true });
  return path;
}

/**
 * Starts a server on E2E_PORT + `portOffset` (each spec file uses its own offset) and waits until
 * it answers. With `databasePath` it reuses that file (to restart a killed server on its data).
 */
export async function startTestServer(options: {
  portOffset: number;
  port?: number;
  name: string;
  env?: Record<string, string>;
  databasePath?: string;
  bareNext?: boolean;
  /** Runs the server as this user (root ignores file permissions: a test of them runs it as another user). */
  user?: { uid: number; gid: number };
  /** Leaves the database as the test made it: not migrated nor opened by this process first. */
  untouched?: boolean;
  /**
   * Under playwright.postgres.config.ts (DATABASE_URL set), a database of its own on that run's
   * PostgreSQL server instead of a SQLite file: for specs that hold both engines to the same behaviour.
   */
  followRunEngine?: boolean;
}): Promise<TestServer> {
  const port = options.port ?? basePort + options.portOffset;
  const databasePath = options.databasePath ?? freshDatabasePath(options.name);
  const runDatabaseUrl = options.followRunEngine ? process.env.DATABASE_URL : undefined;
  if (runDatabaseUrl && (options.untouched || options.databasePath)) throw new Error("a test server on PostgreSQL starts on a fresh database, migrated");
  const databaseUrl = runDatabaseUrl ? await freshPgDatabase(runDatabaseUrl, options.name) : undefined;
  // Migrate before the server starts, so that tests can write fixtures right away.
  const pgDb = databaseUrl ? await openPostgres(databaseUrl) : undefined;
  let db: AppDatabase | undefined = pgDb;
  const openDb = () => (db ??= pgDb ?? openDatabase(databasePath));
  if (!options.untouched) openDb();
  const command = options.bareNext ? [nextCli(), "start", "--hostname", "127.0.0.1", "--port", String(port)] : ["--import", "tsx", "lib/server/main.ts"];
  const child = spawn(process.execPath, command, {
    // Its own SQLite file, also under playwright.postgres.config.ts (whose DATABASE_URL is the shared server's), unless it follows the run's engine.
    env: { ...process.env, DATABASE_URL: databaseUrl, DATABASE_PATH: databaseUrl ? undefined : databasePath, PORT: String(port), HOST: "127.0.0.1", NEXT_TELEMETRY_DISABLED: "1", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
    ...options.user,
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  collectLines(child.stdout!, stdout);
  collectLines(child.stderr!, stderr);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`test server exited: ${stderr.join("\n")}`);
    try {
      if ((await fetch(`${url}/v1/openapi.json`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`test server did not start: ${stderr.join("\n")}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    port,
    databasePath,
    engine: databaseUrl ? "postgres" : "sqlite",
    stdout,
    stderr,
    process: child,
    db: openDb,
    async stop(signal = "SIGTERM") {
      await db?.$engine.close();
      db = undefined;
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

function collectLines(stream: NodeJS.ReadableStream, lines: string[]) {
  let rest = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    const parts = (rest + chunk).split("\n");
    rest = parts.pop()!;
    lines.push(...parts);
  });
}
