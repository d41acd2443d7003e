import { describe, expect, it } from "vitest";
import { jsonArrayStream } from "@/lib/api/json-stream";

async function* batches(list: string[][], log: string[]) {
  try {
    for (const batch of list) {
      log.push("read");
      yield batch;
    }
  } finally {
    log.push("closed");
  }
}

describe("jsonArrayStream", () => {
  it("writes a JSON array from batches, [] when there are none", async () => {
    const log: string[] = [];
    expect(await new Response(await jsonArrayStream(batches([['{"a":1}', '{"a":2}'], ['{"a":3}']], log), () => {})).json()).toEqual([{ a: 1 }, { a: 2 }, { a: 3 }]);
    expect(await new Response(await jsonArrayStream(batches([], log), () => {})).text()).toBe("[]");
  });

  it("writes a batch given as bytes (texts already joined by commas) as it is", async () => {
    async function* mixed() {
      yield new TextEncoder().encode('{"a":1},{"a":"é"}');
      yield ['{"a":3}'];
      yield new TextEncoder().encode('{"a":4}');
    }
    expect(await new Response(await jsonArrayStream(mixed(), () => {})).text()).toBe('[{"a":1},{"a":"é"},{"a":3},{"a":4}]');
  });

  it("reads the first batch at once, then one batch per pull, and stops reading when cancelled", async () => {
    const log: string[] = [];
    const stream = await jsonArrayStream(batches([["1"], ["2"], ["3"]], log), () => {});
    expect(log).toEqual(["read"]);
    const reader = stream.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("[1");
    expect(log).toEqual(["read"]);
    await reader.read();
    expect(log).toEqual(["read", "read"]);
    await reader.cancel();
    expect(log).toEqual(["read", "read", "closed"]);
  });

  it("throws at once when the first batch fails, so the caller can still answer with an error", async () => {
    async function* failing(): AsyncGenerator<string[], void, undefined> {
      throw new Error("no such table: signups");
    }
    await expect(jsonArrayStream(failing(), () => {})).rejects.toThrow("no such table");
  });
});
