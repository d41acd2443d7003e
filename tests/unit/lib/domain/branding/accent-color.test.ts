import { describe, expect, it } from "vitest";
import { accentContrastProblem, contrastRatio } from "@/lib/domain/branding/accent-color";

describe("contrastRatio", () => {
  it("gives WCAG's figures: 21:1 for black on white, 1:1 for a colour on itself, the same either way round", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#777777", "#777777")).toBe(1);
    expect(contrastRatio("#1d4ed8", "#ffffff")).toBeCloseTo(contrastRatio("#ffffff", "#1d4ed8"), 10);
    // WebAIM's checker: #767676 on white is 4.54:1, the lightest grey that passes AA.
    expect(contrastRatio("#767676", "#ffffff")).toBeCloseTo(4.54, 2);
  });
});

describe("accentContrastProblem", () => {
  it("accepts a colour readable behind white text and on the page", () => {
    expect(accentContrastProblem("#1d4ed8")).toBeUndefined();
    expect(accentContrastProblem("#0f766e")).toBeUndefined();
    expect(accentContrastProblem("#000000")).toBeUndefined();
  });

  it("refuses a light colour, naming its ratio and the 4.5:1 it needs", () => {
    expect(accentContrastProblem("#7dd3fc")).toMatch(/^the accent colour #7dd3fc has a contrast of 1\.\d\d:1 against the button's white text and the page; WCAG AA needs 4\.5:1/);
    expect(accentContrastProblem("#ffffff")).toContain("1.00:1");
  });

  it("refuses a colour just short of 4.5:1 without rounding it up to 4.50", () => {
    // #777777 is 4.48:1 on white and lower on the page's #fafafa.
    const problem = accentContrastProblem("#777777");
    expect(problem).toBeDefined();
    expect(problem).not.toContain("4.50:1");
  });
});
