import { spawn } from "node:child_process";
import { parse } from "csv-parse/sync";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { signupCsvStream } from "@/lib/domain/signups/csv";
import { startSqliteBulkInsert } from "@/lib/domain/signups/bulk-insert";
import { cliSandbox, expectOneLineError, type CliSandbox } from "../run-cli";

let cli: CliSandbox;
let sourceId: string;

interface Source {
  email: string;
  verified: boolean;
  referral: boolean;
  custom_inputs: Record<string, unknown>[];
  created_at: string;
}

const TIE = "2025-01-01T00:00:00.000Z";

// Cells the CSV export neutralizes or quotes, custom inputs of every shape (one line each: an import
// refuses line breaks and other control characters), two signups created in the
// same millisecond, and more than one batch (1,000 rows) of plain ones, not written in creation order.
const SPECIAL: Source[] = [
  { email: "ada@example.com", verified: true, referral: false, custom_inputs: [{ label: "company", value: "Acme" }, { label: "role", value: "Engineer" }], created_at: "2025-03-01T10:00:00.123Z" },
  { email: "-dash@example.com", verified: false, referral: true, custom_inputs: [{ label: 'Say "hi", ok', value: 'line1, "line2"; =3' }], created_at: TIE },
  { email: "+plus@example.com", verified: true, referral: true, custom_inputs: [{ label: "city", value: "Zürich €" }, { label: "company", value: "=HYPERLINK(1)" }], created_at: TIE },
  { email: "'quote@example.com", verified: false, referral: false, custom_inputs: [{ note: "-1", n: 3, nested: { a: [1, 2] }, flag: null }], created_at: "2024-02-29T23:59:59.999Z" },
  { email: "''two@example.com", verified: true, referral: false, custom_inputs: [], created_at: "1970-01-01T00:00:00.000Z" },
  { email: "Grace.Hopper@Example.COM", verified: false, referral: true, custom_inputs: [{ label: "company", value: "Globex" }], created_at: "2025-06-30T23:59:59.999Z" },
];

function plain(index: number): Source {
  const inputs = index % 3 === 0 ? [] : [{ label: "company", value: index % 2 ? "Acme" : "Initech" }];
  return {
    email: `p${index}@example${index % 7}.com`,
    verified: index % 2 === 0,
    referral: index % 5 === 0,
    custom_inputs: inputs,
    created_at: new Date(Date.parse("2024-06-01T00:00:00Z") + ((index * 7919) % 2400) * 3_600_000 + index).toISOString(),
  };
}

const SOURCE = [...SPECIAL, ...Array.from({ length: 2400 }, (_, index) => plain(index))];

function newWaitlist(name: string): string {
  return cli.json<{ id: string }>("waitlists", "create", "--name", name, "--website", "https://example.com").id;
}

/** A waitlist's signups as the database holds them, in creation order. */
function signupsOf(id: string) {
  return cli
    .rows("signups")
    .filter((row) => row.waitlist_id === id)
    .sort((a, b) => (a.created_at as number) - (b.created_at as number) || (a.id as number) - (b.id as number))
    .map((row) => ({ email: row.email, verified: row.verified, referral: row.referral, custom_inputs: JSON.parse(String(row.custom_inputs)) as unknown, created_at: row.created_at }));
}

/** Imports a file into a new, empty waitlist and returns its signups. */
function importedBack(path: string): ReturnType<typeof signupsOf> {
  const id = newWaitlist(`Round trip ${path}`);
  expect(cli.json("signups", "import", "--waitlist", id, path)).toEqual({ imported: SOURCE.length, skipped_duplicates: 0 });
  return signupsOf(id);
}

beforeAll(() => {
  cli = cliSandbox();
  sourceId = newWaitlist("Source");
  const ndjson = SOURCE.map((signup) => JSON.stringify(signup)).join("\n");
  expect(cli.json("signups", "import", "--waitlist", sourceId, cli.file("source.ndjson", ndjson))).toEqual({ imported: SOURCE.length, skipped_duplicates: 0 });
});
afterAll(() => cli.remove());

describe("signups export → signups import", () => {
  it("holds the source as written: every field, created_at to the millisecond", () => {
    const byEmail = new Map(signupsOf(sourceId).map((row) => [row.email, row]));
    for (const signup of SPECIAL) {
      expect(byEmail.get(signup.email)).toEqual({ ...signup, verified: Number(signup.verified), referral: Number(signup.referral), created_at: Date.parse(signup.created_at) });
    }
  });

  it.each(["csv", "ndjson", "json"])("%s: into an empty waitlist gives the same signups in the same order", (format) => {
    const path = join(cli.dir, `export.${format}`);
    expect(cli.json("signups", "export", "--waitlist", sourceId, "--format", format, "--output", path)).toEqual({ exported: SOURCE.length, format, output: path });
    expect(importedBack(path)).toEqual(signupsOf(sourceId));
  });

  it("csv by default, the same bytes on stdout as in --output, exactly the dashboard's CSV", async () => {
    const stdout = cli.run("signups", "export", "--waitlist", sourceId);
    expect(stdout.status).toBe(0);
    const path = join(cli.dir, "default.csv");
    expect(cli.run("signups", "export", "--waitlist", sourceId, "--output", path).stdout).toBe(`Exported ${SOURCE.length} signups to ${path}.\n`);
    const db = openDatabase(cli.databasePath);
    try {
      const dashboard = await new Response(signupCsvStream({ waitlistId: sourceId }, [], db)).text();
      expect(stdout.stdout).toBe(dashboard);
      expect(readFileSync(path, "utf8")).toBe(dashboard);
      expect(dashboard.split("\r\n", 1)[0]).toBe("email,verified,referral,custom_inputs,created_at,status,status_changed_at");
      expect(dashboard).toContain("\r\n'-dash@example.com,false,true,");
      expect(dashboard).toContain("\r\n'''two@example.com,true,false,[],1970-01-01T00:00:00.000Z,waiting,\r\n");
    } finally {
      db.$client.close();
    }
  });

  it("the dashboard's CSV export (signupCsvStream) into an empty waitlist gives the same signups", async () => {
    const db = openDatabase(cli.databasePath);
    try {
      const path = cli.file("dashboard.csv", await new Response(signupCsvStream({ waitlistId: sourceId }, [], db)).text());
      expect(importedBack(path)).toEqual(signupsOf(sourceId));
    } finally {
      db.$client.close();
    }
  });

  it("csv with --columns inputs: each answer's label a column of its own, and the file imports back with the same answers", () => {
    const path = join(cli.dir, "columns.csv");
    expect(cli.json("signups", "export", "--waitlist", sourceId, "--columns", "inputs", "--output", path)).toEqual({ exported: SOURCE.length, format: "csv", output: path });
    const text = readFileSync(path, "utf8");
    const header = text.split("\r\n", 1)[0]!;
    // The most common label first, then by label; a label with a comma and quotes is quoted like any cell.
    // `n` and `note` are keys of an answer that is no {label, value} pair: counted by the facets, their columns stay empty.
    expect(header).toBe('email,verified,referral,custom_inputs,created_at,status,status_changed_at,company,"Say ""hi"", ok",city,n,note,role');
    const records = parse(text, { columns: true }) as Record<string, string>[];
    const byEmail = new Map(records.map((record) => [record.email, record]));
    expect(byEmail.get("ada@example.com")).toMatchObject({ custom_inputs: "[]", company: "Acme", role: "Engineer", city: "" });
    expect(byEmail.get("'+plus@example.com")).toMatchObject({ custom_inputs: "[]", company: "'=HYPERLINK(1)", city: "Zürich €" });
    // An answer that is not a {label, value} pair stays in custom_inputs, whole.
    expect(byEmail.get("''quote@example.com")).toMatchObject({ n: "", note: "" });
    expect(JSON.parse(byEmail.get("''quote@example.com")!.custom_inputs!)).toEqual([{ note: "-1", n: 3, nested: { a: [1, 2] }, flag: null }]);
    const sortedInputs = (rows: ReturnType<typeof signupsOf>) => rows.map((row) => ({ ...row, custom_inputs: (row.custom_inputs as object[]).map((input) => JSON.stringify(input)).sort() }));
    expect(sortedInputs(importedBack(path))).toEqual(sortedInputs(signupsOf(sourceId)));
  });

  it("ndjson and json write the API object plus created_at, status and status_changed_at, one signup per line", () => {
    const ndjson = cli.run("signups", "export", "--waitlist", sourceId, "--format", "ndjson", "--email-contains", "hopper");
    expect(ndjson.stdout).toBe('{"email":"Grace.Hopper@Example.COM","verified":false,"referral":true,"custom_inputs":[{"label":"company","value":"Globex"}],"created_at":"2025-06-30T23:59:59.999Z","status":"waiting","status_changed_at":null}\n');
    const json = cli.run("signups", "export", "--waitlist", sourceId, "--format", "json", "--created-since", TIE, "--created-until", "2025-01-01T00:00:00.001Z");
    expect(json.stdout.split("\n")).toEqual([
      "[",
      '{"email":"-dash@example.com","verified":false,"referral":true,"custom_inputs":[{"label":"Say \\"hi\\", ok","value":"line1, \\"line2\\"; =3"}],"created_at":"2025-01-01T00:00:00.000Z","status":"waiting","status_changed_at":null},',
      '{"email":"+plus@example.com","verified":true,"referral":true,"custom_inputs":[{"label":"city","value":"Zürich €"},{"label":"company","value":"=HYPERLINK(1)"}],"created_at":"2025-01-01T00:00:00.000Z","status":"waiting","status_changed_at":null}',
      "]",
      "",
    ]);
    expect(cli.run("signups", "export", "--waitlist", sourceId, "--format", "json", "--email", "nobody@example.com").stdout).toBe("[]\n");
  });
});

describe("signups export filters", () => {
  const emails = (...args: string[]) => {
    const result = cli.run("signups", "export", "--waitlist", sourceId, "--format", "ndjson", ...args);
    expect(result.stderr).toBe("");
    return result.stdout
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as Source).email);
  };
  const inOrder = (signups: Source[]) =>
    [...signups].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at) || SOURCE.indexOf(a) - SOURCE.indexOf(b)).map((signup) => signup.email);
  const hasInput = (signup: Source, label: string, value: string) => signup.custom_inputs.some((input) => input.label === label && input.value === value);

  it("select what the same /v1 parameters select, ANDed", () => {
    expect(emails("--verified", "true", "--referral", "false")).toEqual(inOrder(SOURCE.filter((signup) => signup.verified && !signup.referral)));
    expect(emails("--created-since", "2024-07-01", "--created-until", "2024-07-15T12:00:00+02:00")).toEqual(
      inOrder(SOURCE.filter((signup) => signup.created_at >= "2024-07-01" && Date.parse(signup.created_at) < Date.parse("2024-07-15T10:00:00Z"))),
    );
    expect(emails("--email", "GRACE.hopper@example.com")).toEqual(["Grace.Hopper@Example.COM"]);
    expect(emails("--email-contains", "@EXAMPLE3.")).toEqual(inOrder(SOURCE.filter((signup) => signup.email.includes("@example3."))));
    expect(emails("--input", "company=Acme", "--verified", "false")).toEqual(inOrder(SOURCE.filter((signup) => hasInput(signup, "company", "Acme") && !signup.verified)));
    expect(emails("--input", "company=Acme", "--input", "role=Engineer")).toEqual(["ada@example.com"]);
  });
});

describe("signups export refuses bad input", () => {
  const missing = "00000000-0000-4000-8000-000000000000";
  const DATE_FORMAT = "must be an ISO 8601 date (2026-10-01) or date-time with an offset (2026-10-01T09:30:00Z)";
  const cases: [string, string[], string][] = [
    ["a malformed date", ["--created-since", "2026-13-01"], `error: invalid --created-since: ${DATE_FORMAT} (got "2026-13-01")`],
    ["a date-time without offset", ["--created-until", "2026-10-01T09:30"], `error: invalid --created-until: ${DATE_FORMAT} (got "2026-10-01T09:30")`],
    ["until before since", ["--created-since", "2026-10-02", "--created-until", "2026-10-01"], "error: invalid --created-until: must be after --created-since"],
    ["until equal to since", ["--created-since", "2026-10-01", "--created-until", "2026-10-01T00:00:00Z"], "error: invalid --created-until: must be after --created-since"],
    ["an unknown format", ["--format", "xml"], 'error: invalid --format: must be csv, ndjson or json (got "xml")'],
    ["an empty input label", ["--input", "=Acme"], 'error: invalid --input: the label before "=" must not be empty'],
    ["an input without =", ["--input", "company"], 'error: invalid --input: must be label=value (got "company")'],
    ["an input label twice", ["--input", "company=A", "--input", "company=B"], 'error: invalid --input: the label "company" is given more than once'],
    ["a bad boolean", ["--verified", "yes"], 'error: invalid --verified: must be "true" or "false" (got "yes")'],
    ["an empty email", ["--email", ""], 'error: invalid --email: must not be empty (got "")'],
    ["--json without --output", ["--json"], "error: --json needs --output: without it the signups themselves go to stdout"],
    ["an unknown column layout", ["--columns", "wide"], 'error: invalid --columns: must be fields or inputs (got "wide")'],
    ["answers in columns of JSON", ["--format", "json", "--columns", "inputs"], "error: --columns inputs is for CSV: JSON and NDJSON carry the answers as objects"],
  ];

  it.each(cases)("%s: one line, exit 1, nothing written", (_, args, message) => {
    const folder = join(cli.dir, `bad-${cases.findIndex((entry) => entry[1] === args)}`);
    mkdirSync(folder);
    const output = join(folder, "out.csv");
    expect(expectOneLineError(cli.run("signups", "export", "--waitlist", sourceId, ...args))).toBe(message);
    if (!args.includes("--json")) expect(expectOneLineError(cli.run("signups", "export", "--waitlist", sourceId, ...args, "--output", output))).toBe(message);
    expect(readdirSync(folder)).toEqual([]);
  });

  it("a missing waitlist or output folder: one line, exit 1; an existing output file is left as it was", () => {
    const folder = join(cli.dir, "kept");
    mkdirSync(folder);
    const output = join(folder, "out.csv");
    writeFileSync(output, "kept");
    expect(expectOneLineError(cli.run("signups", "export", "--waitlist", missing, "--output", output))).toBe(`error: No waitlist has the id ${missing}.`);
    expect(expectOneLineError(cli.run("signups", "export", "--waitlist", sourceId, "--created-since", "x", "--output", output))).toMatch(/^error: invalid --created-since: /);
    expect(readdirSync(folder)).toEqual(["out.csv"]);
    expect(readFileSync(output, "utf8")).toBe("kept");
    expect(expectOneLineError(cli.run("signups", "export", "--waitlist", sourceId, "--output", join(cli.dir, "no-such-folder", "out.csv")))).toBe(
      `error: cannot write ${join(cli.dir, "no-such-folder", "out.csv")}: the folder ${join(cli.dir, "no-such-folder")} does not exist`,
    );
    const usage = cli.run("signups", "export");
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/required option '--waitlist <id>' not specified/);
  });
});

describe("signups export streams", () => {
  it("100,000 signups (100 MB of CSV) through a slow pipe from a 64 MB heap", async () => {
    const id = newWaitlist("Large");
    const db = openDatabase(cli.databasePath);
    const rows = 100_000;
    try {
      // A list is not a (label, value) pair: nothing to index, so the rows are quick to write.
      const notes = JSON.stringify([{ notes: ["x".repeat(960)] }]);
      db.$client.transaction(() => {
        const bulk = startSqliteBulkInsert(id, db);
        for (let index = 0; index < rows; index++) bulk.add({ email: `large${index}@example.com`, verified: false, referral: false, customInputs: notes }, 1_700_000_000_000 + index);
        bulk.finish();
      })();
    } finally {
      db.$client.close();
    }
    const child = spawn(process.execPath, ["--import", "tsx", "lib/cli/main.ts", "signups", "export", "--waitlist", id], {
      env: { ...process.env, DATABASE_PATH: cli.databasePath, NODE_NO_WARNINGS: "1", NODE_OPTIONS: "--max-old-space-size=64" },
    });
    let bytes = 0;
    let lines = 0;
    let stderr = "";
    // A slow reader: the export must wait for it rather than buffer what it cannot take.
    child.stdout.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
      child.stdout.pause();
      setTimeout(() => child.stdout.resume(), 1);
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect({ status, stderr }).toEqual({ status: 0, stderr: "" });
    expect(lines).toBe(rows + 1);
    expect(bytes).toBeGreaterThan(100_000_000);
  }, 180_000);
});
