import { accessSync, constants } from "node:fs";
import { spawnSync } from "node:child_process";

// Finds the Chromium the browser tests run in (Debian's package, never a downloaded build) and
// decides how to get it when it is missing. The decision is a pure function of what `probe` says,
// so that every branch is unit-tested without touching the machine.

export const DEFAULT_CHROMIUM_PATH = "/usr/bin/chromium";
const APT_INSTALL = "apt-get install -y --no-install-recommends chromium";

export interface ChromiumProbe {
  /** CHROMIUM_PATH, when set. */
  configuredPath?: string;
  isExecutable(path: string): boolean;
  isRoot: boolean;
  hasAptGet: boolean;
  /** `sudo -n true` succeeds: sudo works without a password. */
  hasPasswordlessSudo: boolean;
}

export type ChromiumPlan =
  | { kind: "found"; path: string }
  /** Run these commands (each an argv), then expect Chromium at `path`. */
  | { kind: "install"; path: string; commands: string[][] }
  /** Stop before any test with this one line. */
  | { kind: "missing"; message: string };

export function planChromium(probe: ChromiumProbe): ChromiumPlan {
  if (probe.configuredPath) {
    if (probe.isExecutable(probe.configuredPath)) return { kind: "found", path: probe.configuredPath };
    return { kind: "missing", message: `CHROMIUM_PATH is ${probe.configuredPath}, which is not an executable file: point it at a Chromium binary, or unset it to use ${DEFAULT_CHROMIUM_PATH}.` };
  }
  if (probe.isExecutable(DEFAULT_CHROMIUM_PATH)) return { kind: "found", path: DEFAULT_CHROMIUM_PATH };
  const update = ["apt-get", "update"];
  const install = APT_INSTALL.split(" ");
  if (probe.hasAptGet && probe.isRoot) return { kind: "install", path: DEFAULT_CHROMIUM_PATH, commands: [update, install] };
  if (probe.hasAptGet && probe.hasPasswordlessSudo) return { kind: "install", path: DEFAULT_CHROMIUM_PATH, commands: [["sudo", ...update], ["sudo", ...install]] };
  const how = probe.hasAptGet ? `sudo apt-get update && sudo ${APT_INSTALL}` : "install your system's chromium package";
  return { kind: "missing", message: `The browser tests need Chromium at ${DEFAULT_CHROMIUM_PATH}: run \`${how}\` (or set CHROMIUM_PATH to a Chromium binary), then npm test again.` };
}

export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function succeeds(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: "ignore" }).status === 0;
}

/** What this machine says. */
export function probeMachine(): ChromiumProbe {
  return {
    configuredPath: process.env.CHROMIUM_PATH || undefined,
    isExecutable,
    isRoot: process.getuid?.() === 0,
    hasAptGet: succeeds("sh", ["-c", "command -v apt-get"]),
    hasPasswordlessSudo: succeeds("sudo", ["-n", "true"]),
  };
}
