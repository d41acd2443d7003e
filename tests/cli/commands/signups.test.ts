import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { THREAD_MIN_BYTES } from "@/lib/import/read-file";
import { cliSandbox, expectOneLineError, type CliSandbox } from "../run-cli";

let cli: CliSandbox;
let waitlistId: string;

beforeAll(() => {
  cli = cliSandbox();
  waitlistId = cli.json<{ id: string }>("waitlists", "create", "--name", "Import", "--website", "https://example.com").id;
});
afterAll(() => cli.remove());

function signupsOf(id: string) {
  return cli.rows("signups").filter((row) => row.waitlist_id === id);
}

function newWaitlist(name: string): string {
  return cli.json<{ id: string }>("waitlists", "create", "--name", name, "--website", "https://example.com").id;
}

const GOOD_CSV = [
  "email,verified,referral,custom_inputs,company,plan",
  'ada@example.com,true,false,"[{""label"":""role"",""value"":""Engineer""}]",Acme,pro',
  "grace@example.com,yes,no,,Globex,",
  "linus@example.com,1,0,[],,free",
  "ADA@example.com,false,true,,,",
  "margaret@example.com,,,,,",
].join("\n");

describe("signups import", () => {
  it("waits for another process's write lock, then fails with one clear line and writes nothing", () => {
    const id = newWaitlist("Busy");
    const holder = new Database(cli.databasePath);
    holder.exec("BEGIN IMMEDIATE");
    try {
      const result = cli.run("signups", "import", "--waitlist", id, cli.file("busy.csv", "email\nbusy@example.com\n"));
      expect(result.status).toBe(1);
      expect(expectOneLineError(result)).toBe(
        `error: ${cli.databasePath}: the database is locked by another process (an import or a backup?): nothing was changed; try again in a minute`,
      );
    } finally {
      holder.exec("ROLLBACK");
      holder.close();
    }
    expect(signupsOf(id)).toEqual([]);
    expect(cli.json("signups", "import", "--waitlist", id, cli.file("busy.csv", "email\nbusy@example.com\n"))).toEqual({ imported: 1, skipped_duplicates: 0 });
  }, 30_000);

  it("imports a good CSV: extra columns become custom_inputs, duplicates in the file are skipped, file order kept", () => {
    const id = newWaitlist("CSV");
    expect(cli.json("signups", "import", "--waitlist", id, cli.file("good.csv", GOOD_CSV))).toEqual({ imported: 4, skipped_duplicates: 1 });
    const rows = signupsOf(id);
    expect(rows.map((row) => [row.email, row.verified, row.referral, JSON.parse(String(row.custom_inputs))])).toEqual([
      ["ada@example.com", 1, 0, [{ label: "role", value: "Engineer" }, { label: "company", value: "Acme" }, { label: "plan", value: "pro" }]],
      ["grace@example.com", 1, 0, [{ label: "company", value: "Globex" }]],
      ["linus@example.com", 1, 0, [{ label: "plan", value: "free" }]],
      ["margaret@example.com", 0, 0, []],
    ]);
    expect(new Set(rows.map((row) => row.created_at)).size).toBe(1);
  });

  it("imports the same file twice: the second time adds nothing and reports the skips", () => {
    const path = cli.file("twice.csv", GOOD_CSV);
    expect(cli.json("signups", "import", "--waitlist", waitlistId, path)).toEqual({ imported: 4, skipped_duplicates: 1 });
    const before = signupsOf(waitlistId);
    expect(cli.json("signups", "import", "--waitlist", waitlistId, path)).toEqual({ imported: 0, skipped_duplicates: 5 });
    expect(signupsOf(waitlistId)).toEqual(before);
    const human = cli.run("signups", "import", "--waitlist", waitlistId, path);
    expect(human.stdout).toBe("Imported 0 signups; skipped 5 duplicates.\n");
  });

  it("imports JSON and NDJSON, skipping emails the waitlist already has", () => {
    const id = newWaitlist("JSON");
    const json = JSON.stringify(
      [
        { email: "a@example.com", verified: true, referral: false, custom_inputs: [{ label: "company", value: "Acme" }] },
        { email: "b@example.com" },
      ],
      null,
      2,
    );
    expect(cli.json("signups", "import", "--waitlist", id, cli.file("good.json", json))).toEqual({ imported: 2, skipped_duplicates: 0 });
    const ndjson = '{"email":"B@example.com","verified":true}\n\n{"email":"c@example.com","referral":true,"custom_inputs":[]}\n';
    expect(cli.json("signups", "import", "--waitlist", id, cli.file("good.ndjson", ndjson))).toEqual({ imported: 1, skipped_duplicates: 1 });
    expect(cli.json("signups", "import", "--waitlist", id.toUpperCase(), cli.file("good.jsonl", '{"email":"d@example.com"}\n'))).toEqual({ imported: 1, skipped_duplicates: 0 });
    expect(signupsOf(id).map((row) => [row.email, row.verified, row.referral, row.custom_inputs])).toEqual([
      ["a@example.com", 1, 0, '[{"label":"company","value":"Acme"}]'],
      ["b@example.com", 0, 0, "[]"],
      ["c@example.com", 0, 1, "[]"],
      ["d@example.com", 0, 0, "[]"],
    ]);
  });

  it("refuses a broken CSV naming lines 7 and 12, and leaves the database exactly as it was", () => {
    const lines = ["email,verified,referral,custom_inputs"];
    for (let line = 2; line <= 14; line++) {
      if (line === 7) lines.push("not-an-email,true,false,[]");
      else if (line === 12) lines.push(`row${line}@example.com,maybe,false,[]`);
      else lines.push(`row${line}@example.com,true,false,[]`);
    }
    const before = { signups: cli.rows("signups"), waitlists: cli.rows("waitlists") };
    const result = cli.run("signups", "import", "--waitlist", waitlistId, cli.file("broken.csv", lines.join("\n")), "--json");
    expect(result.status).toBe(1);
    expect(expectOneLineError(result)).toBe(
      'error: 2 invalid rows, nothing imported: line 7: invalid email "not-an-email"; line 12: verified must be true/false, 1/0 or yes/no (got "maybe")',
    );
    expect({ signups: cli.rows("signups"), waitlists: cli.rows("waitlists") }).toEqual(before);
  });

  it("refuses a broken JSON file naming the lines, and names at most ten", () => {
    const before = cli.rows("signups");
    const objects = Array.from({ length: 15 }, (_, index) => (index % 2 ? `{"email":"ok${index}@example.com"}` : `{"email":"bad${index}"}`));
    const result = cli.run("signups", "import", "--waitlist", waitlistId, cli.file("broken.json", `[\n${objects.join(",\n")}\n]`));
    const line = expectOneLineError(result);
    expect(line).toMatch(/^error: 8 invalid rows, nothing imported: line 2: invalid email "bad0"; line 4: /);
    expect(line.match(/line \d+:/g)).toHaveLength(8);
    const many = Array.from({ length: 30 }, (_, index) => `{"email":"bad${index}"}`).join("\n");
    expect(expectOneLineError(cli.run("signups", "import", "--waitlist", waitlistId, cli.file("many.ndjson", many)))).toMatch(/line 10: .*; and 20 more$/);
    expect(cli.rows("signups")).toEqual(before);
  });

  it("matches header names in any case, and reads ; or tab separated files with --delimiter", () => {
    const id = newWaitlist("Delimiters");
    const excel = "Email; Verified ;Custom_Inputs;Company\nada@example.com;yes;;Acme, Inc.\n";
    const semicolons = cli.file("excel.csv", excel);
    expect(expectOneLineError(cli.run("signups", "import", "--waitlist", id, semicolons))).toBe(
      `error: 1 invalid row, nothing imported: line 1: the header has no "email" column (expected email,verified,referral,custom_inputs,created_at,status,status_changed_at); it looks semicolon-separated: use --delimiter ';'`,
    );
    expect(cli.json("signups", "import", "--waitlist", id, "--delimiter", ";", semicolons)).toEqual({ imported: 1, skipped_duplicates: 0 });
    const tabs = cli.file("export.csv", "EMAIL\tReferral\ngrace@example.com\tyes\n");
    expect(expectOneLineError(cli.run("signups", "import", "--waitlist", id, tabs))).toMatch(/it looks tab-separated: use --delimiter tab$/);
    expect(cli.json("signups", "import", "--waitlist", id, "--delimiter", "tab", tabs)).toEqual({ imported: 1, skipped_duplicates: 0 });
    expect(cli.json("signups", "import", "--waitlist", id, "--delimiter", "\t", tabs)).toEqual({ imported: 0, skipped_duplicates: 1 });
    expect(signupsOf(id).map((row) => [row.email, row.verified, row.referral, row.custom_inputs])).toEqual([
      ["ada@example.com", 1, 0, '[{"label":"Company","value":"Acme, Inc."}]'],
      ["grace@example.com", 0, 1, "[]"],
    ]);
  });

  it("refuses a bad --delimiter, and --delimiter for JSON files", () => {
    const csv = cli.file("plain.csv", "email\nx@example.com\n");
    for (const bad of ["ab", "", '"', "\n"]) {
      expect(expectOneLineError(cli.run("signups", "import", "--waitlist", waitlistId, "--delimiter", bad, csv))).toBe(
        `error: invalid --delimiter: must be one character (not a quote or a line break) or the word tab (got ${JSON.stringify(bad)})`,
      );
    }
    const json = cli.file("plain.json", '[{"email":"x@example.com"}]');
    expect(expectOneLineError(cli.run("signups", "import", "--waitlist", waitlistId, "--delimiter", ";", json))).toBe("error: --delimiter applies to .csv files only");
  });

  it.each([
    ["csv", (big: string) => `email,note\nbig@example.com,"${big}"\nok@example.com,\n`],
    ["json", (big: string) => `[\n{"email":"${big}@example.com"},\n{"email":"ok@example.com"}]`],
    ["ndjson", (big: string) => `{"email":"ok@example.com"}\n{"email":"${big}@example.com"}\n`],
  ] as const)("refuses a %s file with a 50 MB record in a 64 MB heap, naming its line, and imports nothing", (format, content) => {
    const before = cli.rows("signups");
    const path = cli.file(`huge.${format}`, content("a".repeat(50 * 1024 * 1024)));
    const result = cli.runWithEnv({ NODE_OPTIONS: "--max-old-space-size=64" }, "signups", "import", "--waitlist", waitlistId, path);
    expect(expectOneLineError(result)).toBe(
      "error: 1 invalid row, nothing imported: line 2: the record is larger than 1 MB, the most one record may have; the rest of the file was not read",
    );
    expect(cli.rows("signups")).toEqual(before);
  });

  it.each([1_000, 100_000])("refuses custom_inputs nested %i levels deep as an invalid row with its line, in every format, and imports nothing", (levels) => {
    const id = newWaitlist(`Deep ${levels}`);
    const deep = `${"[".repeat(levels)}${"]".repeat(levels)}`;
    const inputs = `[{"label":"deep","value":${deep}}]`;
    const files = [
      ["deep.ndjson", `{"email":"ok@example.com"}\n{"email":"deep@example.com","custom_inputs":${inputs}}\n`, 2],
      ["deep.json", `[{"email":"ok@example.com"},\n{"email":"deep@example.com","custom_inputs":${inputs}}]`, 2],
      ["deep.csv", `email,custom_inputs\nok@example.com,\ndeep@example.com,"${inputs.replaceAll('"', '""')}"\n`, 3],
    ] as const;
    for (const [name, content, line] of files) {
      expect(expectOneLineError(cli.run("signups", "import", "--waitlist", id, cli.file(name, content))), name).toBe(
        `error: 1 invalid row, nothing imported: line ${line}: custom_inputs nests more than 32 levels of arrays and objects`,
      );
    }
    // A whole line nested that deep: refused with a short quote of it, never a stack overflow.
    expect(expectOneLineError(cli.run("signups", "import", "--waitlist", id, cli.file("deep-line.ndjson", `{"email":"ok@example.com"}\n${deep}\n`)))).toBe(
      "error: 1 invalid row, nothing imported: line 2: expected a signup object (got […])",
    );
    expect(signupsOf(id)).toEqual([]);
  });

  it("accepts custom_inputs 32 levels deep with values of 10,000 characters, and refuses one level or one character more", () => {
    const id = newWaitlist("Bounds");
    // The array and its object are 2 levels: the value adds 30 more.
    const nested = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;
    const line = (email: string, inputs: string) => `{"email":"${email}","custom_inputs":${inputs}}`;
    const within = [line("deep@example.com", `[{"label":"deep","value":${nested(30)}}]`), line("long@example.com", `[{"note":"${"n".repeat(10_000)}"}]`)].join("\n");
    expect(cli.json("signups", "import", "--waitlist", id, cli.file("within.ndjson", within))).toEqual({ imported: 2, skipped_duplicates: 0 });
    const beyond = [
      line("deeper@example.com", `[{"label":"deep","value":${nested(31)}}]`),
      line("longer@example.com", `[{"note":"${"n".repeat(10_001)}"}]`),
      line("label@example.com", `[{"${"l".repeat(10_001)}":1}]`),
    ].join("\n");
    expect(expectOneLineError(cli.run("signups", "import", "--waitlist", id, cli.file("beyond.ndjson", beyond)))).toBe(
      "error: 3 invalid rows, nothing imported: line 1: custom_inputs nests more than 32 levels of arrays and objects; " +
        'line 2: the value of "note" in custom_inputs[0] has 10,001 characters; a custom input\'s label or value may have at most 10,000; ' +
        "line 3: a label in custom_inputs[0] has 10,001 characters; a custom input's label or value may have at most 10,000",
    );
    expect(signupsOf(id).map((row) => row.email)).toEqual(["deep@example.com", "long@example.com"]);
  });

  it("keeps the created_at a row gives (CSV column or JSON field); rows without one get the import time", () => {
    const id = newWaitlist("History");
    const csv = ["email,created_at", "old@example.com,2019-03-04", "precise@example.com,2024-02-29T23:59:59.999+01:00", "new@example.com,"].join("\n");
    const started = Date.now();
    expect(cli.json("signups", "import", "--waitlist", id, cli.file("history.csv", csv))).toEqual({ imported: 3, skipped_duplicates: 0 });
    const ndjson = '{"email":"json@example.com","created_at":"2020-01-01T00:00:00.001Z"}\n{"email":"plain@example.com"}\n';
    expect(cli.json("signups", "import", "--waitlist", id, cli.file("history.ndjson", ndjson))).toEqual({ imported: 2, skipped_duplicates: 0 });
    const rows = signupsOf(id).map((row) => [row.email, row.created_at as number]);
    expect(rows.slice(0, 2)).toEqual([
      ["old@example.com", Date.parse("2019-03-04T00:00:00Z")],
      ["precise@example.com", Date.parse("2024-02-29T22:59:59.999Z")],
    ]);
    expect(rows[3]).toEqual(["json@example.com", Date.parse("2020-01-01T00:00:00.001Z")]);
    for (const index of [2, 4]) expect(rows[index]![1]).toBeGreaterThanOrEqual(started);
  });

  it("refuses a created_at that is not ISO 8601, has no offset or is more than a day ahead, naming the lines, and imports nothing", () => {
    const before = cli.rows("signups");
    const tomorrow = new Date(Date.now() + 25 * 3600_000).toISOString();
    const csv = ["email,created_at", "a@example.com,2026-10-01", "b@example.com,2026-10-01T09:30:00", "c@example.com,yesterday", `d@example.com,${tomorrow}`].join("\n");
    expect(expectOneLineError(cli.run("signups", "import", "--waitlist", waitlistId, cli.file("bad-dates.csv", csv)))).toBe(
      "error: 3 invalid rows, nothing imported: " +
        'line 3: created_at must be an ISO 8601 date (2026-10-01) or date-time with an offset (2026-10-01T09:30:00Z) (got "2026-10-01T09:30:00"); ' +
        'line 4: created_at must be an ISO 8601 date (2026-10-01) or date-time with an offset (2026-10-01T09:30:00Z) (got "yesterday"); ' +
        `line 5: created_at is more than a day in the future (got "${tomorrow}")`,
    );
    const json = `[{"email":"a@example.com","created_at":"2026-10-01"},\n{"email":"b@example.com","created_at":"${tomorrow}"}]`;
    expect(expectOneLineError(cli.run("signups", "import", "--waitlist", waitlistId, cli.file("bad-dates.json", json)))).toBe(
      `error: 1 invalid row, nothing imported: line 2: created_at is more than a day in the future (got "${tomorrow}")`,
    );
    expect(cli.rows("signups")).toEqual(before);
  });

  it("reads a file past THREAD_MIN_BYTES on a thread of its own: every row in order, and an invalid row still names its line", () => {
    const rows = Math.ceil(THREAD_MIN_BYTES / 80);
    const line = (index: number) => `person.${index}@example.com,${index % 2 === 0},false,"[{""label"":""role"",""value"":""Role ${index % 7}""}]",Company ${index % 50}`;
    const csv = ["email,verified,referral,custom_inputs,company", ...Array.from({ length: rows }, (_, index) => line(index))].join("\n");
    expect(csv.length).toBeGreaterThan(THREAD_MIN_BYTES);
    const id = newWaitlist("Large CSV");
    expect(cli.json("signups", "import", "--waitlist", id, cli.file("large.csv", csv))).toEqual({ imported: rows, skipped_duplicates: 0 });
    const imported = signupsOf(id);
    expect(imported.length).toBe(rows);
    expect([imported[0]!.email, imported.at(-1)!.email]).toEqual(["person.0@example.com", `person.${rows - 1}@example.com`]);
    // The input pairs came with the rows: the export's input filter reads them.
    const exported = cli.run("signups", "export", "--waitlist", id, "--input", "company=Company 7", "--format", "ndjson").stdout.trim().split("\n");
    expect(exported.length).toBe(Array.from({ length: rows }, (_, index) => index).filter((index) => index % 50 === 7).length);

    const ndjson = Array.from({ length: rows }, (_, index) =>
      JSON.stringify({ email: index === rows - 3 ? "not an email" : `person.${index}@example.com`, custom_inputs: [{ label: "role", value: `Role ${index % 7}` }] }),
    ).join("\n");
    const broken = newWaitlist("Large NDJSON");
    expect(expectOneLineError(cli.run("signups", "import", "--waitlist", broken, cli.file("large.ndjson", ndjson)))).toBe(
      `error: 1 invalid row, nothing imported: line ${rows - 2}: invalid email "not an email"`,
    );
    expect(signupsOf(broken)).toEqual([]);
  });

  it("refuses an unknown waitlist, an unknown extension and a missing file with one line", () => {
    const good = cli.file("small.csv", "email\nx@example.com\n");
    expect(expectOneLineError(cli.run("signups", "import", "--waitlist", "00000000-0000-4000-8000-000000000000", good))).toBe(
      "error: No waitlist has the id 00000000-0000-4000-8000-000000000000.",
    );
    expect(expectOneLineError(cli.run("signups", "import", "--waitlist", waitlistId, cli.file("list.txt", "x")))).toMatch(/^error: cannot tell the format of .*list\.txt \("\.txt"\): use a \.csv, \.json, \.ndjson or \.jsonl file$/);
    expect(expectOneLineError(cli.run("signups", "import", "--waitlist", waitlistId, `${cli.dir}/missing.csv`))).toMatch(/^error: no such file: .*missing\.csv$/);
  });
});
