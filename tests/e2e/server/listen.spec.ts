import { spawnSync } from "node:child_process";
import { expect, test } from "@playwright/test";

// `npm start` (lib/server) on a port another server holds, here the shared e2e server's, fails with
// one line and exit code 1: `npm run demo` relies on it. Next.js's own handler of uncaught errors
// used to log the error twice and let the process exit 0.
test("a server on a port in use exits 1 with one line", () => {
  const port = new URL(process.env.E2E_BASE_URL!).port;
  const result = spawnSync(process.execPath, ["--import", "tsx", "lib/server/main.ts"], {
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, PORT: port, HOST: "127.0.0.1", NEXT_TELEMETRY_DISABLED: "1" },
  });
  expect(result.stderr.trim().split("\n")).toEqual([`error: port ${port} is in use: stop the other server or set PORT`]);
  expect(result.status).toBe(1);
});
