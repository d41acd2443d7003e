import { describe, expect, it } from "vitest";
import { atMostAtOnce } from "@/lib/core/at-once";

describe("atMostAtOnce", () => {
  it("runs at most the limit at once, the others in the order they came, and passes on answers and errors", async () => {
    const run = atMostAtOnce(2);
    let underWay = 0;
    let most = 0;
    const started: number[] = [];
    const releases: (() => void)[] = [];
    const task = (index: number) =>
      run(async () => {
        started.push(index);
        most = Math.max(most, ++underWay);
        await new Promise<void>((resolve) => releases.push(resolve));
        underWay--;
        if (index === 3) throw new Error("task 3 failed");
        return index * 10;
      });
    const results = Promise.allSettled([0, 1, 2, 3, 4].map(task));
    await expect.poll(() => started).toEqual([0, 1]);
    releases[1]!();
    await expect.poll(() => started).toEqual([0, 1, 2]);
    // Each ends in turn; one that ends lets the next waiting one start.
    for (const index of [0, 2, 3, 4]) {
      await expect.poll(() => releases.length).toBeGreaterThan(index);
      releases[index]!();
    }
    const settled = await results;
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
    expect(settled.map((result) => (result.status === "fulfilled" ? result.value : (result.reason as Error).message))).toEqual([0, 10, 20, "task 3 failed", 40]);
    // Its place was handed on after the failure too: the limit is whole again.
    expect(await Promise.all([run(async () => "a"), run(async () => "b")])).toEqual(["a", "b"]);
  });
});
