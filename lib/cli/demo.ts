// `npm run demo` (after `npm run build`): migrate, seed the demo data, issue a fresh demo key,
// print where to go, then run the production server in the foreground.
import { spawn } from "node:child_process";
import { createApiKey, VIEW_ROLE } from "@/lib/api-keys";
import { getDb } from "@/db/client";
import { env } from "@/lib/env";
import { seedDemoData } from "@/lib/seed/seed-demo";

function main() {
  const { DATABASE_PATH, PORT } = env();
  const db = getDb();
  const seeded = seedDemoData({}, db);
  const key = createApiKey({ name: `demo ${new Date().toISOString()}`, roles: [VIEW_ROLE] }, db);
  db.$client.close();

  const url = `http://localhost:${PORT}`;
  const seedNote =
    seeded.waitlists_created > 0 ? `added ${seeded.waitlists_created} demo waitlists with ${seeded.signups_created} signups` : "demo data already present";
  console.log(
    [
      "",
      `  Waitlist Admin demo (database ${DATABASE_PATH}: ${seedNote})`,
      "",
      `  Dashboard:    ${url}`,
      `  API key:      ${key.key}`,
      `  Try the API:  curl -H "Authorization: Bearer ${key.key}" ${url}/v1/waitlist`,
      "",
      "  Sign in to the dashboard with this key (role waitlist:view). It is shown only now.",
      "  Stop the server with Ctrl+C.",
      "",
    ].join("\n"),
  );

  // The production server of `npm start` (lib/server): request logs on stdout.
  const server = spawn(process.execPath, ["--import", "tsx", "lib/server/main.ts"], { stdio: "inherit", env: { ...process.env, PORT: String(PORT) } });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
  server.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
}

try {
  main();
} catch (error) {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
