import { describe, expect, it } from "vitest";
import { lenientSource, sourceOfPageView, sourceValue } from "@/lib/domain/funnel/source";

describe("source fields", () => {
  it("keeps short single-line text, trimmed; empty is none", () => {
    expect(sourceValue("utm_source", "  newsletter ")).toEqual({ ok: true, value: "newsletter" });
    expect(sourceValue("utm_campaign", "   ")).toEqual({ ok: true, value: undefined });
    expect(sourceValue("utm_medium", "a".repeat(101))).toEqual({ ok: false, message: "is longer than 100 characters" });
    expect(sourceValue("utm_source", "a\nb")).toMatchObject({ ok: false, message: expect.stringContaining("a line break") });
    expect(sourceValue("utm_source", "a\u202eb")).toMatchObject({ ok: false, message: expect.stringContaining("bidirectional") });
  });

  it("keeps a referrer given as a URL as its host, in lower case", () => {
    expect(sourceValue("referrer", "https://News.YCombinator.com/item?id=1")).toEqual({ ok: true, value: "news.ycombinator.com" });
    expect(sourceValue("referrer", "Newsletter")).toEqual({ ok: true, value: "newsletter" });
    expect(sourceValue("referrer", `https://example.com/${"a".repeat(300)}`)).toEqual({ ok: true, value: "example.com" });
  });

  it("reads a page view leniently: bad values left out, this site's own Referer ignored", () => {
    expect(sourceOfPageView({ utm_source: "newsletter", utm_campaign: ["a", "b"], utm_medium: "x\ny", ref: "abc" }, "https://twitter.com/status/1", "waitlist.example")).toEqual({
      utm_source: "newsletter",
      referrer: "twitter.com",
    });
    expect(sourceOfPageView({}, "http://waitlist.example/join/x?error=closed", "waitlist.example")).toEqual({});
    expect(sourceOfPageView({}, "android-app://com.x", null)).toEqual({});
    expect(lenientSource({ utm_source: "ok", utm_medium: "z".repeat(200), referrer: 3 })).toEqual({ utm_source: "ok" });
  });
});
