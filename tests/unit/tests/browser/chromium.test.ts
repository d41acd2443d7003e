import { describe, expect, it } from "vitest";
import { DEFAULT_CHROMIUM_PATH, planChromium, type ChromiumProbe } from "@/tests/browser/chromium";

const machine = (overrides: Partial<ChromiumProbe> & { executables?: string[] }): ChromiumProbe => ({
  isExecutable: (path) => (overrides.executables ?? []).includes(path),
  isRoot: false,
  hasAptGet: true,
  hasPasswordlessSudo: false,
  ...overrides,
});

describe("planChromium", () => {
  it("uses CHROMIUM_PATH first, then /usr/bin/chromium", () => {
    expect(planChromium(machine({ configuredPath: "/opt/c/chrome", executables: ["/opt/c/chrome", DEFAULT_CHROMIUM_PATH] }))).toEqual({ kind: "found", path: "/opt/c/chrome" });
    expect(planChromium(machine({ executables: [DEFAULT_CHROMIUM_PATH] }))).toEqual({ kind: "found", path: DEFAULT_CHROMIUM_PATH });
  });

  it("refuses a CHROMIUM_PATH that is not executable instead of installing something else", () => {
    const plan = planChromium(machine({ configuredPath: "/nope", isRoot: true }));
    expect(plan.kind).toBe("missing");
    expect(plan.kind === "missing" && plan.message).toContain("CHROMIUM_PATH is /nope");
  });

  it("installs Debian's package as root, and with sudo when it needs no password", () => {
    expect(planChromium(machine({ isRoot: true }))).toEqual({
      kind: "install",
      path: DEFAULT_CHROMIUM_PATH,
      commands: [["apt-get", "update"], ["apt-get", "install", "-y", "--no-install-recommends", "chromium"]],
    });
    const plan = planChromium(machine({ hasPasswordlessSudo: true }));
    expect(plan.kind === "install" && plan.commands.every((argv) => argv[0] === "sudo")).toBe(true);
  });

  it("says exactly what to run when it may not install", () => {
    const plan = planChromium(machine({}));
    expect(plan).toEqual({
      kind: "missing",
      message:
        "The browser tests need Chromium at /usr/bin/chromium: run `sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium` (or set CHROMIUM_PATH to a Chromium binary), then npm test again.",
    });
    expect(planChromium(machine({ hasAptGet: false, isRoot: true })).kind).toBe("missing");
  });
});
