import { describe, expect, it } from "vitest";
import { jsonArrayStream } from "@/lib/api/json-stream";

function* batches(list: string[][], log: string[]) {
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
    expect(await new Response(jsonArrayStream(batches([['{"a":1}', '{"a":2}'], ['{"a":3}']], log), () => {})).json()).toEqual([{ a: 1 }, { a: 2 }, { a: 3 }]);
    expect(await new Response(jsonArrayStream(batches([], log), () => {})).text()).toBe("[]");
  });

  it("reads one batch per pull and stops reading when cancelled", async () => {
    const log: string[] = [];
    const stream = jsonArrayStream(batches([["1"], ["2"], ["3"]], log), () => {});
    expect(log).toEqual([]);
    const reader = stream.getReader();
    await reader.read();
    expect(log).toEqual(["read"]);
    await reader.cancel();
    expect(log).toEqual(["read", "closed"]);
  });
});
