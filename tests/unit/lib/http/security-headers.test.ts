import { describe, expect, it } from "vitest";
import { pageCsp } from "@/lib/http/security-headers";

describe("pageCsp", () => {
  it("lets nobody frame a page unless told the origins, and allows blob: workers only when asked", () => {
    expect(pageCsp("n")).toContain("frame-ancestors 'none'");
    expect(pageCsp("n")).not.toContain("worker-src");
    const join = pageCsp("n", false, { frameAncestors: ["https://a.example", "https://b.example"], blobWorkers: true });
    expect(join).toContain("frame-ancestors 'self' https://a.example https://b.example");
    expect(join).toContain("worker-src 'self' blob:");
    expect(pageCsp("n", false, { frameAncestors: [] })).toContain("frame-ancestors 'self'");
  });
});
