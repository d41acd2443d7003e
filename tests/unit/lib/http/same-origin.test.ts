import { describe, expect, it } from "vitest";
import { adminWriteCheck } from "@/lib/dashboard/admin-post";
import { crossSiteRefusal, crossSiteRefusalMessage } from "@/lib/http/same-origin";

const refusal = (headers: Record<string, string>, hops = 0) => crossSiteRefusal(new Headers({ host: "127.0.0.1:3000", ...headers }), hops);

describe("crossSiteRefusal", () => {
  it("accepts a POST whose Origin is the request's own origin", () => {
    expect(refusal({ origin: "http://127.0.0.1:3000" })).toBeUndefined();
  });

  it("refuses another origin, another port or scheme, and Origin: null", () => {
    expect(refusal({ origin: "http://evil.example" })).toBe("the request comes from http://evil.example, not from http://127.0.0.1:3000");
    expect(refusal({ origin: "http://127.0.0.1:3001" })).toBeDefined();
    expect(refusal({ origin: "https://127.0.0.1:3000" })).toBeDefined();
    expect(refusal({ origin: "null" })).toBeDefined();
    // Sec-Fetch-Site does not override a foreign Origin.
    expect(refusal({ origin: "http://evil.example", "sec-fetch-site": "same-origin" })).toBeDefined();
  });

  it("without Origin, accepts only Sec-Fetch-Site: same-origin", () => {
    expect(refusal({ "sec-fetch-site": "same-origin" })).toBeUndefined();
    expect(refusal({ "sec-fetch-site": "same-site" })).toBe("the request has no Origin header and is not same-origin");
    expect(refusal({ "sec-fetch-site": "cross-site" })).toBeDefined();
    expect(refusal({})).toBeDefined();
  });

  it("computes our origin as lib/http/origin.ts does (a trusted proxy's HTTPS and host)", () => {
    const proxied = { "x-forwarded-proto": "https", "x-forwarded-host": "admin.example" };
    expect(refusal({ ...proxied, origin: "https://admin.example" }, 1)).toBeUndefined();
    expect(refusal({ ...proxied, origin: "https://admin.example" }, 0)).toBeDefined();
  });

  it("is worded the same by the production server (lib/server/refuse.ts) and by a dashboard write route", async () => {
    const headers = { host: "127.0.0.1:3000", origin: "https://evil.example" };
    const refused = await adminWriteCheck(new Request("http://127.0.0.1:3000/keys/create", { method: "POST", headers }));
    expect(refused).toBeInstanceOf(Response);
    expect(await (refused as Response).text()).toBe(`${crossSiteRefusalMessage(crossSiteRefusal(new Headers(headers))!)}\n`);
  });
});
