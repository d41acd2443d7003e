import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { postgresCommand, startPostgres } from "@/tests/support/pg-server";

// The webServer of playwright.postgres.config.ts, as one long-running command: a throw-away PostgreSQL
// on the port the config chose (its spec files reach it through DATABASE_URL), migrated, and the
// production server of `npm start` on it, on the `next build` the SQLite run made just before. Whichever
// ends first, both stop: a signal to this process, or the app server exiting.

const databasePort = Number(process.env.E2E_PG_DATABASE_PORT);
const distDir = process.env.NEXT_DIST_DIR ?? ".next";

function finished(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode ?? 1);
    else child.once("exit", (code) => resolve(code ?? 1));
  });
}

/** Runs `command` to its end, sharing this process's output; throws when it fails. */
async function runStep(argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const code = await finished(spawn(argv[0]!, argv.slice(1), { stdio: "inherit", env }));
  if (code !== 0) throw new Error(`\`${argv.join(" ")}\` failed (exit ${code})`);
}

/** Throws, naming the variable that moves it, when something listens on `port` already (a server there would answer for ours). */
function ensurePortFree(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", () => reject(new Error(`port ${port} of 127.0.0.1 is taken: set E2E_PG_DATABASE_PORT to a free one`)));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve()));
  });
}

async function main(): Promise<void> {
  await ensurePortFree(databasePort);
  const postgres = await startPostgres({ port: databasePort });
  let app: ChildProcess | undefined;
  let stopping: Promise<never> | undefined;
  const stop = (code: number) =>
    (stopping ??= (async () => {
      if (app && app.exitCode === null && app.signalCode === null) {
        app.kill("SIGTERM");
        await finished(app);
      }
      await postgres.stop();
      process.exit(code);
    })());
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void stop(0));
  try {
    const env = { ...process.env, DATABASE_URL: postgres.url };
    if (!existsSync(join(distDir, "BUILD_ID"))) await runStep(["npx", "next", "build"], env);
    await runStep(["npm", "run", "cli", "--", "db", "migrate"], env);
    // Sent SIGTERM if this process dies without stopping it (PostgreSQL is sent its own signal likewise).
    const [command, ...args] = postgresCommand([process.execPath, "--import", "tsx", "lib/server/main.ts"], { asRoot: false, parentDeathSignal: "TERM" });
    app = spawn(command!, args, { stdio: "inherit", env });
    const code = await finished(app);
    if (stopping) return;
    console.error(`the app server on PostgreSQL exited (code ${code})`);
    await stop(code === 0 ? 1 : code);
  } catch (error) {
    console.error(error);
    await stop(1);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
