import { describe, expect, it } from "vitest";
import { describeCustomInputs, hasCutText, previewCustomInputs, type PreviewBounds } from "@/components/custom-inputs";

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

describe("previewCustomInputs", () => {
  const bounds: PreviewBounds = { entries: 3, totalChars: 1_000, keyChars: 5, valueChars: 8 };

  it("keeps short inputs whole and counts them", () => {
    const preview = previewCustomInputs([{ label: "A", value: "one" }, { b: 2 }], bounds);
    expect(preview).toEqual({ entries: [{ key: "A", value: "one", structured: false }, { key: "b", value: "2", structured: false }], total: 2 });
    expect(hasCutText(preview)).toBe(false);
  });

  it("takes the first entries, counts every entry, and cuts long keys and values, saying by how much", () => {
    const inputs = [{ label: "Message", value: "0123456789abc" }, { tags: ["a", "b"] }, ...Array.from({ length: 25_000 }, (_, index) => ({ label: `F${index}`, value: "v" }))];
    const preview = previewCustomInputs(inputs, bounds);
    expect(preview.total).toBe(25_002);
    expect(preview.entries).toEqual([
      { key: "Messa", keyCut: 2, value: "01234567", valueCut: 5, structured: false },
      { key: "tags", value: '[\n  "a",', valueCut: 8, structured: true },
      { key: "F0", value: "v", structured: false },
    ]);
    expect(hasCutText(preview)).toBe(true);
  });

  it("never cuts inside a character made of two UTF-16 units", () => {
    const [entry] = previewCustomInputs([{ label: "E", value: "1234567😀9" }], bounds).entries;
    expect(entry).toEqual({ key: "E", value: "1234567", valueCut: 3, structured: false });
  });

  it("stops adding entries once the character budget is spent", () => {
    const inputs = Array.from({ length: 10 }, (_, index) => ({ label: `K${index}`, value: "x".repeat(100) }));
    const preview = previewCustomInputs(inputs, { entries: 50, totalChars: 250, keyChars: 10, valueChars: 100 });
    // 102 characters per entry: the third one crosses 250, the fourth is not taken.
    expect(preview.entries.map((entry) => entry.key)).toEqual(["K0", "K1", "K2"]);
    expect(preview.total).toBe(10);
  });
});
