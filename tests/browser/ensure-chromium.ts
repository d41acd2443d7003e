// Runs before the Playwright suite (npm run test:e2e): makes sure Debian's Chromium is there,
// installing it when this user may, or stops with one line that says what to run.
import { spawnSync } from "node:child_process";
import { isExecutable, planChromium, probeMachine } from "./chromium";

function fail(message: string): never {
  console.error(`error: ${message}`);
  process.exit(1);
}

const plan = planChromium(probeMachine());
if (plan.kind === "missing") fail(plan.message);
if (plan.kind === "install") {
  console.log(`Chromium is missing: installing Debian's chromium package (${plan.commands.map((argv) => argv.join(" ")).join(" && ")})`);
  for (const [command, ...args] of plan.commands) {
    const result = spawnSync(command!, args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
    if (result.status !== 0) fail(`\`${[command, ...args].join(" ")}\` failed (exit ${result.status ?? result.signal}): install Debian's chromium package yourself, then npm test again.`);
  }
  if (!isExecutable(plan.path)) fail(`the chromium package installed, but ${plan.path} is still missing: set CHROMIUM_PATH to the Chromium binary.`);
}
