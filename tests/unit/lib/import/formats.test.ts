import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { formatOf, readRecords, type ImportFormat } from "@/lib/import/formats";
import { neutralizeFormula, restoreNeutralized } from "@/lib/domain/signups/csv";
import { BATCH_SIZE, latestCreatedAt, MAX_CUSTOM_INPUT_CHARS, MAX_RECORD_BYTES, type ImportRecord } from "@/lib/import/row";

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
      { line: 2, error: 'email contains a line break (got "multi\\nline"); verified must be true/false, 1/0 or yes/no (got "maybe"); referral must be true/false, 1/0 or yes/no (got "2"); custom_inputs must be a JSON array of objects (got {"a":1})' },
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

  it("matches the header's signup columns in any case and trimmed; other columns keep their name as written", async () => {
    const csv = 'Email, Verified ,REFERRAL,Custom_Inputs, Company \na@x.com,yes,no,"[{""label"":""role"",""value"":""Dev""}]",Acme\n';
    expect(await read("csv", csv)).toEqual([{ line: 2, row: row("a@x.com", true, false, '[{"label":"role","value":"Dev"},{"label":"Company","value":"Acme"}]') }]);
    expect(await read("csv", "email, EMAIL\n")).toEqual([{ line: 1, error: 'the header names the column "email" twice' }]);
  });

  it("says when a header without an email column looks split by another delimiter", async () => {
    const hint = (records: ImportRecord[]) => records.at(-1)?.error?.replace(/^.*; it looks /, "");
    expect(hint(await read("csv", "email;verified\na@x.com;true\n"))).toBe("semicolon-separated: use --delimiter ';'");
    expect(hint(await read("csv", "Email\tVerified\na@x.com\ttrue\n"))).toBe("tab-separated: use --delimiter tab");
    // Every cell quoted: the comma reading fails on the header itself.
    expect(await read("csv", '"email";"verified"\n"a@x.com";"true"\n')).toEqual([{ line: 1, error: expect.stringMatching(/^malformed CSV: .*; it looks semicolon-separated: use --delimiter ';'$/) }]);
    expect(hint(await readAll("csv", Readable.from([Buffer.from("email,verified\na@x.com,true\n")]), { delimiter: ";" }))).toBe("comma-separated: leave out --delimiter");
    expect(await read("csv", "mail;verified\nx;true\n")).toEqual([{ line: 1, error: 'the header has no "email" column (expected email,verified,referral,custom_inputs,created_at,status,status_changed_at)' }]);
  });

  it("reads the delimiter it is given", async () => {
    for (const delimiter of [";", "\t", "|"]) {
      const csv = [`email${delimiter}verified${delimiter}company`, `a@x.com${delimiter}true${delimiter}"Acme, Inc."`].join("\n");
      expect(await readAll("csv", Readable.from([Buffer.from(csv)]), { delimiter })).toEqual([{ line: 2, row: row("a@x.com", true, false, '[{"label":"company","value":"Acme, Inc."}]') }]);
    }
  });

  it("stops at a malformed record with its line", async () => {
    const records = await read("csv", "email,verified\na@x.com,true\nb@x.com,true,extra\nc@x.com,false\n");
    expect(records.at(-1)).toEqual({ line: 3, error: "malformed CSV: the row has 3 cells but the header has 2" });
    expect(records.some((record) => record.row?.email === "c@x.com")).toBe(false);
    const unclosed = await read("csv", 'email\na@x.com\n"b@x.com\n', 7, false);
    expect(unclosed.at(-1)?.error).toBe("malformed CSV: a quoted cell is never closed");
  });
});

describe("control and bidi characters", () => {
  it("are refused in an address, a custom input's label or value (at any depth) and an extra column, naming the field", async () => {
    const csv = ["email,custom_inputs,note", 'b@x.com,"[{""label"":""role"",""value"":""Dev\\nBcc: y""}]",', "c@x.com,,\u202Eexe.gnp", "d@x.com,,plain", '"a@x.com\nBcc: y@x.com",,'].join("\n");
    expect(await read("csv", csv)).toEqual([
      { line: 2, error: 'the value of "value" in custom_inputs[0] contains a line break: labels and values are one line of plain text' },
      { line: 3, error: 'the column "note" contains a bidirectional text control (U+202E): custom inputs are one line of plain text' },
      { line: 4, row: row("d@x.com", false, false, '[{"label":"note","value":"plain"}]') },
      { line: 5, error: 'email contains a line break (got "a@x.com\\nBcc: y@x.com")' },
    ]);
    const ndjson = ['{"email":"e@x.com","custom_inputs":[{"label":"a\\u0000","value":"x"}]}', '{"email":"g@x.com","custom_inputs":[{"\\u2066":"x"}]}', '{"email":"f@x.com","custom_inputs":[{"label":"a","value":{"deep":["ok","\\u0085"]}}]}'].join("\n");
    expect(await read("ndjson", ndjson)).toEqual([
      { line: 1, error: 'the value of "label" in custom_inputs[0] contains a NUL character: labels and values are one line of plain text' },
      { line: 2, error: "a label in custom_inputs[0] contains a bidirectional text control (U+2066): labels and values are one line of plain text" },
      { line: 3, error: 'the value of "value" in custom_inputs[0] contains a control character (U+0085): labels and values are one line of plain text' },
    ]);
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

const NOW = Date.parse("2026-11-23T12:00:00.000Z");

async function readAt(format: ImportFormat, text: string): Promise<ImportRecord[]> {
  const records: ImportRecord[] = [];
  for await (const batch of readRecords(format, Readable.from([Buffer.from(text)]), { exactLines: true, latestCreatedAt: latestCreatedAt(NOW) })) records.push(...batch);
  return records;
}

const CREATED_AT_FORMAT = "an ISO 8601 date (2026-10-01) or date-time with an offset (2026-10-01T09:30:00Z)";

describe("created_at", () => {
  it("reads an ISO 8601 date or date-time with an offset from CSV; an empty cell means the import's time", async () => {
    const csv = [
      "email,created_at",
      "a@x.com,2026-10-01",
      "b@x.com,2026-10-01T09:30:00.123Z",
      "c@x.com, 2026-10-01T11:30:00+02:00 ",
      "d@x.com,",
      "e@x.com,2026-11-24T12:00:00Z",
    ].join("\n");
    expect(await readAt("csv", csv)).toEqual([
      { line: 2, row: { ...row("a@x.com"), createdAt: Date.parse("2026-10-01T00:00:00Z") } },
      { line: 3, row: { ...row("b@x.com"), createdAt: Date.parse("2026-10-01T09:30:00.123Z") } },
      { line: 4, row: { ...row("c@x.com"), createdAt: Date.parse("2026-10-01T09:30:00Z") } },
      { line: 5, row: row("d@x.com") },
      { line: 6, row: { ...row("e@x.com"), createdAt: NOW + 24 * 3600_000 } },
    ]);
    expect((await readAt("csv", "email,created_at\nd@x.com,\n"))[0]).not.toHaveProperty("row.createdAt");
  });

  it.each([
    ["2026-10-01T09:30:00", `created_at must be ${CREATED_AT_FORMAT} (got "2026-10-01T09:30:00")`],
    ["2026-02-30", `created_at must be ${CREATED_AT_FORMAT} (got "2026-02-30")`],
    ["01/10/2026", `created_at must be ${CREATED_AT_FORMAT} (got "01/10/2026")`],
    ["2026-11-24T12:00:00.001Z", 'created_at is more than a day in the future (got "2026-11-24T12:00:00.001Z")'],
    ["1969-12-31", 'created_at must not be before 1970 (got "1969-12-31")'],
  ])("refuses %s with the line", async (value, error) => {
    expect(await readAt("csv", `email,created_at\na@x.com,true\nb@x.com,${value}\n`)).toEqual([
      { line: 2, error: `created_at must be ${CREATED_AT_FORMAT} (got "true")` },
      { line: 3, error },
    ]);
    expect(await readAt("ndjson", `{"email":"b@x.com","created_at":${JSON.stringify(value)}}`)).toEqual([{ line: 1, error }]);
  });

  it("reads the created_at field of JSON and NDJSON objects, which must be a string", async () => {
    const json = '[{"email":"a@x.com","created_at":"2026-10-01T09:30:00.123Z"},\n{"email":"b@x.com"},\n{"email":"c@x.com","created_at":1759311000000}]';
    expect(await readAt("json", json)).toEqual([
      { line: 1, row: { ...row("a@x.com"), createdAt: Date.parse("2026-10-01T09:30:00.123Z") } },
      { line: 2, row: row("b@x.com") },
      { line: 3, error: `created_at must be ${CREATED_AT_FORMAT} (got 1759311000000)` },
    ]);
    expect(await readAt("ndjson", '{"email":"a@x.com","created_at":null}')).toEqual([{ line: 1, error: `created_at must be ${CREATED_AT_FORMAT} (got null)` }]);
  });
});

describe("cells the CSV export neutralized", () => {
  it("get their text back: one leading quote before =, +, -, @, a tab, a carriage return or another quote is removed", async () => {
    const csv = ["email,created_at,note", "'-a@x.com,,'=1+1", "''b@x.com,,'+x", "'c@x.com,,'plain", "d@x.com,,'@\t'"].join("\n");
    expect(await readAt("csv", csv)).toEqual([
      { line: 2, row: row("-a@x.com", false, false, '[{"label":"note","value":"=1+1"}]') },
      { line: 3, row: row("'b@x.com", false, false, '[{"label":"note","value":"+x"}]') },
      { line: 4, row: row("'c@x.com", false, false, '[{"label":"note","value":"\'plain"}]') },
      // Restored, then refused: a tab is not single-line text (lib/core/single-line-text.ts).
      { line: 5, error: 'the column "note" contains a tab: custom inputs are one line of plain text' },
    ]);
  });

  it("round-trips every cell through neutralizeFormula", () => {
    for (const cell of ["=1+1", "+", "-x", "@x", "\tx", "\rx", "'", "'=x", "''x", "x'", "", "plain", "[]"]) {
      expect(restoreNeutralized(neutralizeFormula(cell))).toBe(cell);
    }
  });
});

/**
 * A stream of `head`, then `size` bytes of "a" (made as they are read, never held whole), then
 * `tail`. `pulled()` is how many bytes the reader has taken from it.
 */
function hugeRecordStream(head: string, size: number, tail: string) {
  let pulled = 0;
  const counted = (bytes: Buffer) => {
    pulled += bytes.length;
    return bytes;
  };
  async function* parts() {
    yield counted(Buffer.from(head));
    const chunk = Buffer.alloc(64 * 1024, "a");
    for (let left = size; left > 0; left -= chunk.length) yield counted(chunk.subarray(0, Math.min(left, chunk.length)));
    yield counted(Buffer.from(tail));
  }
  return { stream: Readable.from(parts()), pulled: () => pulled };
}

async function readAll(format: ImportFormat, stream: Readable, options: { exactLines?: boolean; delimiter?: string } = {}): Promise<ImportRecord[]> {
  const records: ImportRecord[] = [];
  for await (const batch of readRecords(format, stream, { exactLines: true, ...options })) records.push(...batch);
  stream.destroy();
  return records;
}

const FIFTY_MB = 50 * 1024 * 1024;
const TOO_LARGE = "the record is larger than 1 MB, the most one record may have; the rest of the file was not read";

describe("NDJSON line splitting", () => {
  it("strips a BOM and CRLF line ends, and decodes characters split across chunks", async () => {
    const ndjson = '\uFEFF{"email":"a@x.com","custom_inputs":[{"label":"city","value":"Zürich €"}]}\r\n\r\n{"email":"b@x.com"}';
    for (const size of [1, 2, 5, 4096]) {
      expect(await read("ndjson", ndjson, size)).toEqual([
        { line: 1, row: row("a@x.com", false, false, '[{"label":"city","value":"Zürich €"}]') },
        { line: 3, row: row("b@x.com") },
      ]);
    }
  });
});

describe("batches", () => {
  it.each(["csv", "json", "ndjson"] as const)("%s: hands records over in batches of at most BATCH_SIZE, however many records a chunk holds", async (format) => {
    const lines = Array.from({ length: 2.5 * BATCH_SIZE }, (_, index) => (format === "csv" ? `u${index}@x.com` : `{"email":"u${index}@x.com"}`));
    const text = format === "csv" ? `email\n${lines.join("\n")}\n` : format === "json" ? `[${lines.join(",\n")}]` : `${lines.join("\n")}\n`;
    const sizes: number[] = [];
    // The whole file in one chunk, as a 1 MB read of short lines is.
    for await (const batch of readRecords(format, Readable.from([Buffer.from(text)]))) sizes.push(batch.length);
    expect(sizes).toEqual([BATCH_SIZE, BATCH_SIZE, BATCH_SIZE / 2]);
  });
});

describe("record size limit", () => {
  it("is 1 MB", () => {
    expect(MAX_RECORD_BYTES).toBe(1024 * 1024);
  });

  it.each([
    // A record spanning lines 2-3 and a blank line come before the oversized one, on line 5.
    // (A line break inside a cell: JSON's whitespace, since text with one is refused.)
    ["csv", 'email,custom_inputs\na@x.com,"[\n]"\n\nb@x.com,"', '"\nc@x.com,\n', 5],
    ["json", '[\n{"email":"a@x.com",\n "verified":true},\n\n{"email":"', '"},\n{"email":"c@x.com"}]', 5],
    ["ndjson", '{"email":"a@x.com"}\n\n\n\n{"email":"', '"}\n{"email":"c@x.com"}\n', 5],
  ] as const)("%s: a 50 MB record stops the reader at the line it starts on, after reading little more than 1 MB", async (format, head, tail, line) => {
    const source = hugeRecordStream(head, FIFTY_MB, tail);
    const records = await readAll(format, source.stream);
    expect(records.at(0)?.row?.email).toBe("a@x.com");
    expect(records.at(-1)).toEqual({ line, error: TOO_LARGE });
    expect(records).toHaveLength(2);
    expect(source.pulled()).toBeLessThan(4 * MAX_RECORD_BYTES);
  });

  it("csv: names the oversized record by its position when exact lines are off", async () => {
    const records = await readAll("csv", hugeRecordStream("email\na@x.com\n", FIFTY_MB, "\n").stream, { exactLines: false });
    expect(records.at(-1)).toEqual({ line: 3, error: TOO_LARGE });
  });

  it("counts the bytes of a record, not its characters", async () => {
    // `count` characters `fill`, in custom inputs of at most MAX_CUSTOM_INPUT_CHARS each.
    const record = (fill: string, count: number) => {
      const inputs = Array.from({ length: Math.ceil(count / MAX_CUSTOM_INPUT_CHARS) }, (_, index) => ({
        label: "note",
        value: fill.repeat(Math.min(MAX_CUSTOM_INPUT_CHARS, count - index * MAX_CUSTOM_INPUT_CHARS)),
      }));
      return JSON.stringify({ email: "a@x.com", custom_inputs: inputs });
    };
    const guess = MAX_RECORD_BYTES - record("", 0).length;
    const exactly = record("a", guess - (record("a", guess).length - MAX_RECORD_BYTES));
    expect(Buffer.byteLength(exactly)).toBe(MAX_RECORD_BYTES);
    // "€" is 3 bytes in UTF-8: 1.5 MB in 512 K characters.
    const euros = record("€", 512 * 1024);
    for (const format of ["json", "ndjson"] as const) {
      const text = (records: string[]) => (format === "json" ? `[${records.join(",\n")}]` : records.join("\n"));
      expect((await read(format, text([exactly, '{"email":"b@x.com"}']), 64 * 1024)).map((item) => item.error ?? item.row.email)).toEqual(["a@x.com", "b@x.com"]);
      expect(await read(format, text([`${exactly} `, '{"email":"b@x.com"}']), 64 * 1024)).toEqual([{ line: 1, error: TOO_LARGE }]);
      expect(await read(format, text(['{"email":"b@x.com"}', euros]), 64 * 1024)).toEqual([{ line: 1, row: row("b@x.com") }, { line: 2, error: TOO_LARGE }]);
    }
  });

  it("csv: accepts a cell just under 1 MB and refuses one just over", async () => {
    const cell = (size: number) => `email,note\na@x.com,${"n".repeat(size)}\n`;
    expect((await read("csv", cell(MAX_RECORD_BYTES - 100), 64 * 1024)).map((item) => item.error ?? item.row.email)).toEqual(["a@x.com"]);
    expect(await read("csv", cell(MAX_RECORD_BYTES + 1), 64 * 1024)).toEqual([{ line: 2, error: TOO_LARGE }]);
  });
});
