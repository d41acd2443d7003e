import { describe, expect, it } from "vitest";
import { ifNoneMatchMatches, weakEtag } from "@/lib/http/conditional";

describe("entity tags and If-None-Match", () => {
  const tag = weakEtag('[{"id":1}]', "Link", "<https://x.example/next>");

  it("are weak, stable, and change with any part", () => {
    expect(tag).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
    expect(weakEtag('[{"id":1}]', "Link", "<https://x.example/next>")).toBe(tag);
    expect(weakEtag('[{"id":1}]')).not.toBe(tag);
    expect(weakEtag('[{"id":1}]', "Link", "<https://x.example/other>")).not.toBe(tag);
    // Parts are delimited: moving a character from one part to the next changes the tag.
    expect(weakEtag("ab", "c")).not.toBe(weakEtag("a", "bc"));
  });

  it("match by weak comparison, in a list, or with *", () => {
    const opaque = tag.slice(2);
    expect(ifNoneMatchMatches(tag, tag)).toBe(true);
    expect(ifNoneMatchMatches(opaque, tag)).toBe(true);
    expect(ifNoneMatchMatches(`"other", ${tag}`, tag)).toBe(true);
    expect(ifNoneMatchMatches(`W/"other",${opaque}`, tag)).toBe(true);
    expect(ifNoneMatchMatches("*", tag)).toBe(true);
    expect(ifNoneMatchMatches(' * ', tag)).toBe(true);
  });

  it("do not match anything else", () => {
    expect(ifNoneMatchMatches(null, tag)).toBe(false);
    expect(ifNoneMatchMatches("", tag)).toBe(false);
    expect(ifNoneMatchMatches('W/"other"', tag)).toBe(false);
    expect(ifNoneMatchMatches(tag.slice(3, -1), tag)).toBe(false);
    expect(ifNoneMatchMatches(`${tag.slice(0, -2)}"`, tag)).toBe(false);
  });
});
