import { describe, expect, it, vi } from "vitest";

// Next.js evaluates a module once per route bundle and the server once more: every copy of the
// registry must hand out the same instances.

describe("the process-wide registry", () => {
  it("gives two copies of the module the same slot and the same singleton", async () => {
    const first = await import("@/lib/core/process-slots");
    vi.resetModules();
    const second = await import("@/lib/core/process-slots");
    expect(second).not.toBe(first);

    const provided = { name: "provided" };
    expect(second.processSlot<typeof provided>("registry test slot").get()).toBeUndefined();
    first.processSlot<typeof provided>("registry test slot").provide(provided);
    expect(second.processSlot<typeof provided>("registry test slot").get()).toBe(provided);

    let made = 0;
    const fromFirst = first.processSingleton("registry test singleton", () => ({ made: ++made }));
    const fromSecond = second.processSingleton("registry test singleton", () => ({ made: ++made }));
    expect(fromSecond()).toBe(fromFirst());
    expect(made).toBe(1);
  });
});
