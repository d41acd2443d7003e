import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppDatabase } from "@/db/client";
import { countSignups } from "@/lib/domain/signups/counts";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { importSignups, InvalidImportFileError } from "@/lib/import/import-signups";
import { pgliteDatabase } from "@/tests/support/pglite";
import { tempDatabase } from "@/tests/support/temp-db";

// The import on each engine, with the expectations of the CLI's tests (tests/cli/commands/signups.test.ts,
// which run it on SQLite through the real CLI): the same rows in, the same skips, nothing on an error.

const ENGINES = [
  { engine: "SQLite", open: () => Promise.resolve(tempDatabase().db) },
  { engine: "PostgreSQL (PGlite)", open: () => pgliteDatabase() },
];

const GOOD_CSV = [
  "email,verified,referral,custom_inputs,company,plan",
  'ada@example.com,true,false,"[{""label"":""role"",""value"":""Engineer""}]",Acme,pro',
  "grace@example.com,yes,no,,Globex,",
  "linus@example.com,1,0,[],,free",
  "ADA@example.com,false,true,,,",
  "margaret@example.com,,,,,",
].join("\n");

describe.each(ENGINES)("importSignups on $engine", ({ open }) => {
  let db: AppDatabase;
  let dir: string;
  beforeAll(async () => {
    db = await open();
    dir = mkdtempSync(join(tmpdir(), "waitlist-import-"));
  }, 60_000);
  afterAll(async () => {
    await db.$engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  const newWaitlist = async (name: string) => (await createWaitlist({ name, website: "https://example.com" }, db)).id;
  const signupsOf = (waitlistId: string) =>
    db.$engine.prepare("SELECT email, verified, referral, custom_inputs, created_at FROM signups WHERE waitlist_id = ? ORDER BY id").all<{
      email: string;
      verified: number;
      referral: number;
      custom_inputs: string;
      created_at: number;
    }>([waitlistId]);

  it("imports a good CSV: extra columns become custom_inputs, duplicates in the file are skipped, file order kept", async () => {
    const id = await newWaitlist("CSV");
    expect(await importSignups({ waitlistId: id, path: file("good.csv", GOOD_CSV) }, db)).toEqual({ imported: 4, skipped_duplicates: 1 });
    const rows = await signupsOf(id);
    expect(rows.map((row) => [row.email, row.verified, row.referral, JSON.parse(row.custom_inputs)])).toEqual([
      ["ada@example.com", 1, 0, [{ label: "role", value: "Engineer" }, { label: "company", value: "Acme" }, { label: "plan", value: "pro" }]],
      ["grace@example.com", 1, 0, [{ label: "company", value: "Globex" }]],
      ["linus@example.com", 1, 0, [{ label: "plan", value: "free" }]],
      ["margaret@example.com", 0, 0, []],
    ]);
    expect(new Set(rows.map((row) => row.created_at)).size).toBe(1);
    // What the schema derives came with the rows: the counts.
    expect(await countSignups({ waitlistId: id }, db)).toMatchObject({ total: 4, verified: 3, referral: 0 });
  });

  it("imports the same file twice: the second time adds nothing and reports the skips", async () => {
    const id = await newWaitlist("Twice");
    const path = file("twice.csv", GOOD_CSV);
    expect(await importSignups({ waitlistId: id, path }, db)).toEqual({ imported: 4, skipped_duplicates: 1 });
    const before = await signupsOf(id);
    expect(await importSignups({ waitlistId: id, path }, db)).toEqual({ imported: 0, skipped_duplicates: 5 });
    expect(await signupsOf(id)).toEqual(before);
  });

  it("imports JSON and NDJSON, skipping emails the waitlist already has", async () => {
    const id = await newWaitlist("JSON");
    const json = JSON.stringify([{ email: "a@example.com", verified: true, referral: false, custom_inputs: [{ label: "company", value: "Acme" }] }, { email: "b@example.com" }], null, 2);
    expect(await importSignups({ waitlistId: id, path: file("good.json", json) }, db)).toEqual({ imported: 2, skipped_duplicates: 0 });
    const ndjson = '{"email":"B@example.com","verified":true}\n\n{"email":"c@example.com","referral":true,"custom_inputs":[]}\n';
    expect(await importSignups({ waitlistId: id, path: file("good.ndjson", ndjson) }, db)).toEqual({ imported: 1, skipped_duplicates: 1 });
    expect(await importSignups({ waitlistId: id, path: file("good.jsonl", '{"email":"d@example.com"}\n') }, db)).toEqual({ imported: 1, skipped_duplicates: 0 });
    expect((await signupsOf(id)).map((row) => [row.email, row.verified, row.referral, row.custom_inputs])).toEqual([
      ["a@example.com", 1, 0, '[{"label":"company","value":"Acme"}]'],
      ["b@example.com", 0, 0, "[]"],
      ["c@example.com", 0, 1, "[]"],
      ["d@example.com", 0, 0, "[]"],
    ]);
  });

  it("refuses a broken CSV naming lines 7 and 12, and writes nothing", async () => {
    const id = await newWaitlist("Broken");
    const lines = ["email,verified,referral,custom_inputs"];
    for (let line = 2; line <= 14; line++) {
      if (line === 7) lines.push("not-an-email,true,false,[]");
      else if (line === 12) lines.push(`row${line}@example.com,maybe,false,[]`);
      else lines.push(`row${line}@example.com,true,false,[]`);
    }
    const refused = importSignups({ waitlistId: id, path: file("broken.csv", lines.join("\n")) }, db);
    await expect(refused).rejects.toBeInstanceOf(InvalidImportFileError);
    await expect(refused).rejects.toThrow('2 invalid rows, nothing imported: line 7: invalid email "not-an-email"; line 12: verified must be true/false, 1/0 or yes/no (got "maybe")');
    expect(await signupsOf(id)).toEqual([]);
    expect((await countSignups({ waitlistId: id }, db)).total).toBe(0);
  });

  it("keeps the created_at a row gives (CSV column or JSON field); rows without one get the import time", async () => {
    const id = await newWaitlist("History");
    const now = new Date("2026-05-01T00:00:00Z");
    const csv = ["email,created_at", "old@example.com,2019-03-04", "precise@example.com,2024-02-29T23:59:59.999+01:00", "new@example.com,"].join("\n");
    expect(await importSignups({ waitlistId: id, path: file("history.csv", csv), now }, db)).toEqual({ imported: 3, skipped_duplicates: 0 });
    const ndjson = '{"email":"json@example.com","created_at":"2020-01-01T00:00:00.001Z"}\n{"email":"plain@example.com"}\n';
    expect(await importSignups({ waitlistId: id, path: file("history.ndjson", ndjson), now }, db)).toEqual({ imported: 2, skipped_duplicates: 0 });
    expect((await signupsOf(id)).map((row) => [row.email, row.created_at])).toEqual([
      ["old@example.com", Date.parse("2019-03-04T00:00:00Z")],
      ["precise@example.com", Date.parse("2024-02-29T22:59:59.999Z")],
      ["new@example.com", now.getTime()],
      ["json@example.com", Date.parse("2020-01-01T00:00:00.001Z")],
      ["plain@example.com", now.getTime()],
    ]);
  });
});
