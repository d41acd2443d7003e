// `npm run demo`: check the port is free, build (unless the sources are those of the last build),
// migrate, seed the demo data, keep or issue the demo keys, print where to go, then run the production
// server in the foreground and print it again once it answers.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { closeDb, getDb } from "@/db/client";
import { env } from "@/lib/core/env";
import { startupSummary } from "@/lib/core/startup-summary";
import { ensurePortFree } from "@/lib/http/listen";
import { buildIsCurrent, sourceHash, stampBuild } from "./build-stamp";
import { prepareDemo } from "./demo-banner";

// The keys must stay on screen: no request log (a line per request, prefetches included) and no
// telemetry notice from Next.js.
const QUIET: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", REQUEST_LOG: "off" };

/** Runs a command with our terminal; resolves with its exit code (1 when a signal ended it). */
async function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn(command, args, { stdio: "inherit", env });
  const [code] = (await once(child, "exit")) as [number | null];
  return code ?? 1;
}

/** Whether the server at `url` came to answer (false once `gone` says it ended first). */
async function answering(url: string, gone: () => boolean): Promise<boolean> {
  while (!gone()) {
    try {
      if ((await fetch(`${url}/v1/openapi.json`)).ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

async function main(): Promise<void> {
  const { DATABASE_PATH, PORT, HOST } = env();
  // Before the build: building would overwrite the build folder of a server running there.
  await ensurePortFree(PORT, HOST);
  const distDir = process.env.NEXT_DIST_DIR || ".next";
  const sources = sourceHash(process.cwd());
  if (buildIsCurrent(distDir, sources)) {
    console.log(`Build: the one in ${distDir} is of these sources: not building again.`);
  } else {
    const built = await run("npm", ["run", "build"], QUIET);
    if (built !== 0) {
      console.error("error: the build failed (see above)");
      process.exitCode = built;
      return;
    }
    stampBuild(distDir, sources);
  }
  // The build takes minutes: another server may have started meanwhile. Keys are not touched then.
  await ensurePortFree(PORT, HOST);

  const db = getDb();
  const url = `http://localhost:${PORT}`;
  const banner = await prepareDemo(db, { databasePath: DATABASE_PATH, url, summary: startupSummary(env()) });
  // The server opens its own: this process keeps none (on PostgreSQL, a pool's connections).
  await closeDb();
  console.log(banner.starting);

  // The production server of `npm start` (lib/server), quiet (QUIET above).
  const server = spawn(process.execPath, ["--import", "tsx", "lib/server/main.ts"], { stdio: "inherit", env: { ...QUIET, PORT: String(PORT) } });
  const gone = () => server.exitCode !== null || server.signalCode !== null;
  void answering(`http://${HOST ?? "localhost"}:${PORT}`, gone).then((up) => {
    if (up) console.log(banner.ready);
  });
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      stopping = true;
      server.kill(signal);
    });
  }
  const [code] = (await once(server, "exit")) as [number | null];
  // Ctrl+C is how the demo ends; any other end of the server is a failure.
  process.exitCode = code ?? (stopping ? 0 : 1);
}

main().catch((error: unknown) => {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
