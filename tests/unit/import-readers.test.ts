import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { formatOf, readRecords, type ImportFormat } from "@/lib/import/formats";
import type { ImportRecord } from "@/lib/import/row";

/** Feeds `text` in small chunks, so records and strings straddle chunk boundaries. */
async function read(format: ImportFormat, text: string, chunkSize = 7, exactLines = true): Promise<ImportRecord[]> {
  const chunks: Buffer[] = [];
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += chunkSize) chunks.push(bytes.subarray(at, at + chunkSize));
  const records: ImportRecord[] = [];
  for await (const batch of readRecords(format, Readable.from(chunks), { exactLines })) records.push(...batch);
  return records;
}

const row = (email: string, verified = false, referral = false, customInputs = "[]") => ({ email, verified, referral, customInputs });

describe("formatOf", () => {
  it("chooses the format by extension", () => {
    expect(formatOf("a.csv")).toBe("csv");
    expect(formatOf("dir.x/A.JSON")).toBe("json");
    expect(formatOf("a.ndjson")).toBe("ndjson");
    expect(formatOf("a.jsonl")).toBe("ndjson");
  });
  it.each(["a.txt", "a", "a.csv.gz"])("refuses %s with a clear message", (path) => {
    expect(() => formatOf(path)).toThrow(/use a \.csv, \.json, \.ndjson or \.jsonl file/);
  });
});

describe("CSV", () => {
  it("reads booleans in every accepted spelling, custom_inputs and extra columns", async () => {
    const csv = [
      "\uFEFFemail,verified,referral,custom_inputs,company",
      'a@x.com,true,FALSE,"[{""label"":""role"",""value"":""Dev""}]",Acme',
      "b@x.com,1,0,,",
      "",
      " c@x.com ,Yes,no,[],Initech",
      "d@x.com,,,,",
    ].join("\r\n");
    expect(await read("csv", csv)).toEqual([
      { line: 2, row: row("a@x.com", true, false, '[{"label":"role","value":"Dev"},{"label":"company","value":"Acme"}]') },
      { line: 3, row: row("b@x.com", true, false) },
      { line: 5, row: row("c@x.com", true, false, '[{"label":"company","value":"Initech"}]') },
      { line: 6, row: row("d@x.com") },
    ]);
  });

  it("needs only the email column", async () => {
    expect(await read("csv", "email\na@x.com\n")).toEqual([{ line: 2, row: row("a@x.com") }]);
  });

  it("names every problem of a row, on the line where the row starts", async () => {
    const csv = 'email,verified,referral,custom_inputs\n"multi\nline",maybe,2,"{""a"":1}"\nb@x.com,true,true,"[1]"\nc@x.com,true,true,"[oops"\n';
    expect(await read("csv", csv)).toEqual([
      { line: 2, error: 'invalid email "multi\\nline"; verified must be true/false, 1/0 or yes/no (got "maybe"); referral must be true/false, 1/0 or yes/no (got "2"); custom_inputs must be a JSON array of objects (got {"a":1})' },
      { line: 4, error: "custom_inputs[0] must be an object (got 1)" },
      { line: 5, error: 'custom_inputs is not valid JSON (got "[oops")' },
    ]);
  });

  it("refuses a header without email, with a repeated or an empty column", async () => {
    expect(await read("csv", "mail,verified\nx,true\n")).toEqual([{ line: 1, error: expect.stringContaining('no "email" column') }]);
    expect(await read("csv", "email,email\n")).toEqual([{ line: 1, error: expect.stringContaining('"email" twice') }]);
    expect(await read("csv", "email,,x\n")).toEqual([{ line: 1, error: "column 2 of the header has no name" }]);
    expect(await read("csv", "")).toEqual([{ line: 1, error: expect.stringContaining("the file is empty") }]);
  });

  it("stops at a malformed record with its line", async () => {
    const records = await read("csv", "email,verified\na@x.com,true\nb@x.com,true,extra\nc@x.com,false\n");
    expect(records.at(-1)).toEqual({ line: 3, error: "malformed CSV: the row has 3 cells but the header has 2" });
    expect(records.some((record) => record.row?.email === "c@x.com")).toBe(false);
    const unclosed = await read("csv", 'email\na@x.com\n"b@x.com\n', 7, false);
    expect(unclosed.at(-1)?.error).toBe("malformed CSV: a quoted cell is never closed");
  });
});

describe("JSON array", () => {
  it("streams elements with the line each starts on, whatever the chunking", async () => {
    const json = '[\n  {"email": "a@x.com", "verified": true, "custom_inputs": [{"note": "has ] and } and \\" inside"}]},\n  {"email": "b@x.com",\n   "referral": true}\n]\n';
    for (const size of [1, 3, 16, 4096]) {
      expect(await read("json", json, size)).toEqual([
        { line: 2, row: row("a@x.com", true, false, '[{"note":"has ] and } and \\" inside"}]') },
        { line: 3, row: row("b@x.com", false, true) },
      ]);
    }
  });

  it("accepts an empty array", async () => {
    expect(await read("json", " [ ] ")).toEqual([]);
  });

  it("reports bad elements and keeps going", async () => {
    const json = '[{"email":"x"},\n"text",\n{"email":"a@x.com","verified":"true","extra":1},\n{"email":"b@x.com","custom_inputs":[null]}]';
    expect(await read("json", json)).toEqual([
      { line: 1, error: 'invalid email "x"' },
      { line: 2, error: 'expected a signup object (got "text")' },
      { line: 3, error: 'unknown field "extra"; verified must be true or false (got "true")' },
      { line: 4, error: "custom_inputs[0] must be an object (got null)" },
    ]);
  });

  it.each([
    ["", "the file is empty"],
    ['{"email":"a@x.com"}', "one array of signup objects"],
    ['[{"email":"a@x.com"},]', 'unexpected "]"'],
    ['[{"email":"a@x.com"} {"email":"b@x.com"}]', "invalid JSON"],
    ['[{"email":"a@x.com"}', "before the array is closed"],
    ['[{"email":"a@x.com"}] x', "after the closing ]"],
  ])("refuses the structure of %j", async (json, message) => {
    const records = await read("json", json);
    expect(records.at(-1)?.error).toContain(message);
  });
});

describe("NDJSON", () => {
  it("reads one object per line and skips blank lines", async () => {
    expect(await read("ndjson", '{"email":"a@x.com","verified":true}\n\n{"email":"b@x.com"}\nnot json\n')).toEqual([
      { line: 1, row: row("a@x.com", true) },
      { line: 3, row: row("b@x.com") },
      { line: 4, error: expect.stringMatching(/^invalid JSON: /) },
    ]);
  });
});
