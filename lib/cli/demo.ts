// `npm run demo`: check the port is free, build, migrate, seed the demo data, replace the demo key,
// print where to go, then run the production server in the foreground.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { getDb } from "@/db/client";
import { env } from "@/lib/core/env";
import { ensurePortFree } from "@/lib/http/listen";
import { issueDemoKey } from "@/lib/seed/demo-key";
import { seedDemoData } from "@/lib/seed/seed-demo";

/** Runs a command with our terminal; resolves with its exit code (1 when a signal ended it). */
async function run(command: string, args: string[]): Promise<number> {
  const child = spawn(command, args, { stdio: "inherit" });
  const [code] = (await once(child, "exit")) as [number | null];
  return code ?? 1;
}

function banner(databasePath: string, url: string, seedNote: string, key: string, revokedPrefixes: string[]): string {
  const revoked = revokedPrefixes.map((prefix) => `  Revoked the previous demo key ${prefix}… (only its hash is stored, so it cannot be shown again).`);
  return [
    "",
    `  Waitlist Admin demo (database ${databasePath}: ${seedNote})`,
    "",
    `  Dashboard:    ${url}`,
    `  API key:      ${key}`,
    `  Try the API:  curl -H "Authorization: Bearer ${key}" ${url}/v1/waitlist`,
    "",
    "  Sign in to the dashboard with this key (role waitlist:view). It is shown only now.",
    ...revoked,
    "  Stop the server with Ctrl+C.",
    "",
  ].join("\n");
}

async function main(): Promise<void> {
  const { DATABASE_PATH, PORT, HOST } = env();
  // Before the build: building would overwrite the build folder of a server running there.
  await ensurePortFree(PORT, HOST);
  const built = await run("npm", ["run", "build"]);
  if (built !== 0) {
    console.error("error: the build failed (see above)");
    process.exitCode = built;
    return;
  }
  // The build takes minutes: another server may have started meanwhile. Keys are not touched then.
  await ensurePortFree(PORT, HOST);

  const db = getDb();
  const seeded = seedDemoData({}, db);
  const { key, revoked } = issueDemoKey(db);
  db.$client.close();

  const seedNote =
    seeded.waitlists_created > 0 ? `added ${seeded.waitlists_created} demo waitlists with ${seeded.signups_created} signups` : "demo data already present";
  console.log(banner(DATABASE_PATH, `http://localhost:${PORT}`, seedNote, key.key, revoked.map((old) => old.prefix)));

  // The production server of `npm start` (lib/server): request logs on stdout.
  const server = spawn(process.execPath, ["--import", "tsx", "lib/server/main.ts"], { stdio: "inherit", env: { ...process.env, PORT: String(PORT) } });
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
