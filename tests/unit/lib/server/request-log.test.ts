import { describe, expect, it } from "vitest";
import { batchedLineWriter, loggablePath } from "@/lib/server/request-log";

describe("loggablePath", () => {
  it("keeps the path and only the names of query parameters", () => {
    expect(loggablePath("/v1/waitlist")).toEqual({ path: "/v1/waitlist" });
    expect(loggablePath("/v1/waitlist?limit=5&cursor=secret-ish&limit=6")).toEqual({ path: "/v1/waitlist", queryParams: ["limit", "cursor"] });
    expect(loggablePath("/?")).toEqual({ path: "/", queryParams: [] });
    expect(loggablePath("/x?a%20b=1&%FF=2&=3")).toEqual({ path: "/x", queryParams: ["a b", "%FF"] });
  });

  it("masks anything that looks like an API key, in the path and in parameter names", () => {
    const key = `wl_${"A1b2_-".repeat(7)}x`;
    const logged = loggablePath(`/v1/waitlist/${key}?${key}=1&api_key=${key}`);
    expect(JSON.stringify(logged)).not.toContain(key.slice(3));
    expect(logged).toEqual({ path: "/v1/waitlist/wl_[redacted]", queryParams: ["wl_[redacted]", "api_key"] });
  });

  it("bounds what it writes", () => {
    const logged = loggablePath(`/${"a".repeat(10_000)}?${Array.from({ length: 100 }, (_, i) => `p${i}=1`).join("&")}`);
    expect(logged.path.length).toBeLessThanOrEqual(512);
    expect(logged.queryParams!.length).toBeLessThanOrEqual(20);
  });
});

describe("batchedLineWriter", () => {
  it("writes the lines of one event-loop turn in one write, in order", async () => {
    const writes: string[] = [];
    const writeLine = batchedLineWriter((text) => writes.push(text));
    writeLine("a");
    writeLine("b");
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    writeLine("c");
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(["a\nb\n", "c\n"]);
  });
});
