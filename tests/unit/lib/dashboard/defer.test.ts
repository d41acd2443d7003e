import { describe, expect, it } from "vitest";
import { later } from "@/lib/dashboard/defer";

describe("later", () => {
  it("runs deferred work in order, one job per turn of the event loop, so that other callbacks run in between", async () => {
    const order: string[] = [];
    const jobs = [
      later(() => {
        order.push("first job");
        // Work that became ready while the first job ran, like a request arriving on a socket.
        setImmediate(() => order.push("other work"));
        return 1;
      }),
      later(() => {
        order.push("second job");
        return 2;
      }),
    ];
    expect(await Promise.all(jobs)).toEqual([1, 2]);
    expect(order).toEqual(["first job", "other work", "second job"]);
  });

  it("rejects with the job's error and carries on with the next", async () => {
    const failing = later(() => {
      throw new Error("no such table");
    });
    const next = later(() => "still served");
    await expect(failing).rejects.toThrow("no such table");
    await expect(next).resolves.toBe("still served");
  });
});
