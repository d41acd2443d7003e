import { describe, expect, it } from "vitest";
import { releasingWhenDone } from "@/lib/dashboard/export-slots";
import { SlotPool } from "@/lib/http/slot-pool";

function counting() {
  const calls = { count: 0 };
  return { calls, release: () => void (calls.count += 1) };
}

function streamOf(chunks: string[], failAfter?: number) {
  let index = 0;
  return new ReadableStream<string>({
    pull(controller) {
      if (failAfter !== undefined && index === failAfter) return controller.error(new Error("disk on fire"));
      if (index === chunks.length) return controller.close();
      controller.enqueue(chunks[index++]!);
    },
  });
}

describe("SlotPool", () => {
  it("gives each key its slots, refuses past them, and frees a slot once however often it is released", () => {
    const pool = new SlotPool(2);
    const first = pool.take("a")!;
    const second = pool.take("a")!;
    expect(pool.take("a")).toBeNull();
    expect(pool.take("b")).not.toBeNull();
    first();
    first();
    expect(pool.inUse("a")).toBe(1);
    const third = pool.take("a");
    expect(third).not.toBeNull();
    expect(pool.take("a")).toBeNull();
    second();
    third!();
    expect(pool.inUse("a")).toBe(0);
  });
});

describe("releasingWhenDone", () => {
  it("passes every chunk through and releases when the stream ends", async () => {
    const { calls, release } = counting();
    const reader = releasingWhenDone(streamOf(["a", "b"]), release).getReader();
    expect((await reader.read()).value).toBe("a");
    expect((await reader.read()).value).toBe("b");
    expect(calls.count).toBe(0);
    expect((await reader.read()).done).toBe(true);
    expect(calls.count).toBe(1);
  });

  it("releases when the stream fails", async () => {
    const { calls, release } = counting();
    const reader = releasingWhenDone(streamOf(["a", "b"], 1), release).getReader();
    await reader.read();
    await expect(reader.read()).rejects.toThrow("disk on fire");
    expect(calls.count).toBe(1);
  });

  it("releases and cancels the source when the reader cancels (a client that disconnects)", async () => {
    const { calls, release } = counting();
    let cancelled = false;
    const source = new ReadableStream<string>({
      pull: (controller) => controller.enqueue("row"),
      cancel: () => void (cancelled = true),
    });
    const reader = releasingWhenDone(source, release).getReader();
    await reader.read();
    await reader.cancel();
    expect(calls.count).toBe(1);
    expect(cancelled).toBe(true);
  });

  it("releases when the request is aborted, even before anything was read", () => {
    const { calls, release } = counting();
    const controller = new AbortController();
    releasingWhenDone(streamOf(["a"]), release, controller.signal);
    expect(calls.count).toBe(0);
    controller.abort();
    expect(calls.count).toBe(1);
    const early = counting();
    releasingWhenDone(streamOf(["a"]), early.release, AbortSignal.abort());
    expect(early.calls.count).toBe(1);
  });
});
