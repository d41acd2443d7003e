import { describe, expect, it } from "vitest";
import { drawableText } from "@/lib/join/og-text";

describe("drawableText", () => {
  it("keeps Latin text and typographic punctuation", () => {
    expect(drawableText("Café “beta” – soon…", 100)).toBe("Café “beta” – soon…");
  });

  it("leaves out what the bundled font cannot draw (so next/og fetches nothing), and collapses the spaces left", () => {
    expect(drawableText("Launch 🚀 today 東京", 100)).toBe("Launch today");
  });

  it("cuts at `max` characters with an ellipsis", () => {
    expect(drawableText("a".repeat(20), 10)).toBe(`${"a".repeat(9)}…`);
    expect(drawableText("a".repeat(10), 10)).toBe("a".repeat(10));
  });
});
