import { describe, expect, it } from "vitest";
import { describeCustomInputs } from "@/components/custom-inputs";

describe("describeCustomInputs", () => {
  it("reads {label, value} objects as label: value", () => {
    expect(describeCustomInputs([{ label: "Company", value: "Acme" }, { label: "Seats", value: 5 }])).toEqual([
      { key: "Company", value: "Acme", structured: false },
      { key: "Seats", value: "5", structured: false },
    ]);
  });

  it("reads other objects field by field and nested values as JSON", () => {
    expect(describeCustomInputs([{ plan: "pro", tags: ["a", "b"] }, { label: "X", value: null, note: "n" }, "loose", {}])).toEqual([
      { key: "plan", value: "pro", structured: false },
      { key: "tags", value: '[\n  "a",\n  "b"\n]', structured: true },
      { key: "X", value: "null", structured: false },
      { key: "note", value: "n", structured: false },
      { key: "Item 3", value: "loose", structured: false },
      { key: "Item 4", value: "{}", structured: true },
    ]);
  });
});
