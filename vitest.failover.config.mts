import { defineConfig } from "vitest/config";
import base from "./vitest.config.mjs";

// `npm run test:failover`: the tests that start a PostgreSQL cluster of their own (tests/failover/),
// which the default run (vitest.config.mts) leaves out. One file at a time: two clusters at once would
// share the machine's cores and blur the failover timings each file measures.
export default defineConfig({
  ...base,
  test: { ...base.test, include: ["tests/failover/**/*.test.ts"], fileParallelism: false, testTimeout: 180_000, hookTimeout: 300_000 },
});
