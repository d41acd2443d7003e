import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig, devices } from "@playwright/test";

// One production server on a throw-away SQLite file serves every e2e and API test. Test files
// open the same file through the query layer to create their own fixtures.
const port = Number(process.env.E2E_PORT ?? 3100);
const databasePath = process.env.E2E_DATABASE_PATH ?? join(tmpdir(), `waitlist-e2e-${port}.db`);
process.env.DATABASE_PATH = databasePath;
process.env.E2E_BASE_URL = `http://127.0.0.1:${port}`;
// Webhook receivers of the tests listen on http://127.0.0.1 (lib/http/safe-target.ts refuses it otherwise).
process.env.WEBHOOK_ALLOW_HTTP = "1";
process.env.WEBHOOK_ALLOW_PRIVATE = "1";

export const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1, EXCLUDE localhost",
];

export default defineConfig({
  testDir: "tests/e2e",
  // Specs by what they drive: /v1, the dashboard in Chromium, the production server itself; helpers live in support/.
  testMatch: "{api,dashboard,server}/**/*.spec.ts",
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: process.env.CI ? "list" : [["list"]],
  timeout: 60_000,
  use: {
    baseURL: process.env.E2E_BASE_URL,
    trace: "retain-on-failure",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: chromiumArgs },
      },
    },
  ],
  webServer: {
    // The production server of `npm start` (lib/server), as in production.
    command: `rm -f "${databasePath}" "${databasePath}-wal" "${databasePath}-shm" "${databasePath}.key" && npx next build && npm run cli -- db migrate && node --import tsx lib/server/main.ts`,
    url: `http://127.0.0.1:${port}/`,
    env: {
      DATABASE_PATH: databasePath,
      HOST: "127.0.0.1",
      PORT: String(port),
      // Every test comes from 127.0.0.1, and the API tests fail authentication on purpose many times
      // a minute: the failure limit is tested on servers of its own (tests/e2e/server/rate-limit.spec.ts).
      AUTH_FAILURES_PER_MINUTE: "100000",
      // Likewise every join: the per-client join limit is tested on servers of its own (server/join-limits.spec.ts).
      JOINS_PER_CLIENT_PER_HOUR: "1000000",
      // And the burst rule, which flags a join for review: its unit tests count it (tests/unit/lib/domain/fraud).
      JOIN_BURST_PER_CLIENT: "1000000",
      // One process, so that a limit is counted whole (the sign-in failure limit, dashboard/auth.spec.ts): with
      // workers each allows its share (server/cluster.spec.ts).
      WEB_CONCURRENCY: "1",
      // The test runner acts as the one trusted proxy: tests that send X-Forwarded-For (the sign-in
      // limit tests) are that address; the others are 127.0.0.1.
      TRUSTED_PROXY_HOPS: "1",
      NEXT_TELEMETRY_DISABLED: "1",
      WEBHOOK_ALLOW_HTTP: "1",
      WEBHOOK_ALLOW_PRIVATE: "1",
      NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? ".next",
    },
    reuseExistingServer: false,
    timeout: 300_000,
    stdout: "ignore",
    stderr: "pipe",
  },
});
