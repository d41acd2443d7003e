import { defineConfig } from "@playwright/test";
import sqliteConfig from "./playwright.config";

// The /v1 API tests and most dashboard specs again, on PostgreSQL: the production server of `npm start` with
// DATABASE_URL, on a throw-away PostgreSQL 15 that tests/e2e/support/serve-on-postgres.ts starts and stops
// with it (specs with a server of their own give it a database of its own there: followRunEngine). The
// settings are playwright.config.ts's (run it first: this one reuses its `next build`); spec files
// reach the same database through DATABASE_URL, and open its sealed secrets with the same SECRETS_KEY.
// Not here: specs of SQLite's own files, backups or settings.
const DASHBOARD_SPECS = ["signups", "join-page", "status-actions", "parity", "join-verify", "person-page", "fraud-review", "funnel", "erase", "segments", "join-settings", "webhooks", "schedules", "invitation-email", "keys-and-audit", "first-screen", "overview", "smoke", "confirmations", "ranking", "milestones", "import-upload"];
const port = Number(process.env.E2E_PG_PORT ?? 3200);
// Below the ephemeral range (32768–60999), where the free ports of other tests' servers are picked.
const databasePort = Number(process.env.E2E_PG_DATABASE_PORT ?? 25432);
process.env.DATABASE_URL = `postgres://postgres@127.0.0.1:${databasePort}/waitlist`;
process.env.SECRETS_KEY = "e2e0".repeat(16);
process.env.E2E_BASE_URL = `http://127.0.0.1:${port}`;

const sqliteServer = sqliteConfig.webServer as Exclude<typeof sqliteConfig.webServer, unknown[] | undefined>;

export default defineConfig({
  ...sqliteConfig,
  testMatch: ["api/**/*.spec.ts", ...DASHBOARD_SPECS.map((name) => `dashboard/${name}.spec.ts`)],
  use: { ...sqliteConfig.use, baseURL: process.env.E2E_BASE_URL },
  webServer: {
    ...sqliteServer,
    command: "node --import tsx tests/e2e/support/serve-on-postgres.ts",
    url: `${process.env.E2E_BASE_URL}/`,
    env: {
      ...sqliteServer.env,
      PORT: String(port),
      E2E_PG_DATABASE_PORT: String(databasePort),
      SECRETS_KEY: process.env.SECRETS_KEY,
    },
    // A signal it passes on (the app server first, then PostgreSQL), rather than a kill of its process group.
    gracefulShutdown: { signal: "SIGTERM", timeout: 20_000 },
  },
});
