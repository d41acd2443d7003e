import { defineConfig } from "vitest/config";
import base from "./vitest.config.mjs";

// `npm run test:failover`: the tests that start a PostgreSQL cluster of their own (tests/failover/),
// which the default run (vitest.config.mts) leaves out.
export default defineConfig({
  ...base,
  test: { ...base.test, include: ["tests/failover/**/*.test.ts"], testTimeout: 180_000, hookTimeout: 300_000 },
});
