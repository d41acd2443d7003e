import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { normalizeStoredWebsite, normalizeWebsite } from "@/lib/core/website";
import { newWaitlistSchema } from "@/lib/domain/waitlists/queries";

const ajv = new Ajv2020();
addFormats(ajv);
const isUri = ajv.compile({ type: "string", format: "uri" });

// [as typed, as stored]
const CASES: [string, string][] = [
  ["https://例え.example/päth", "https://xn--r8jz45g.example/p%C3%A4th"],
  ["https://example.com/a b|c", "https://example.com/a%20b%7Cc"],
  ["https://nimbus.example", "https://nimbus.example/"],
  ["HTTPS://Example.COM:443/./a/../b?q=a b|c", "https://example.com/b?q=a%20b%7Cc"],
  ["https://x.example/a^b`c{d}[e]\\f#g|h#i", "https://x.example/a%5Eb%60c%7Bd%7D%5Be%5D/f#g%7Ch%23i"],
  ["https://x.example/%zz%41", "https://x.example/%25zz%41"],
  ["http://[::1]:8080/a|b", "http://[::1]:8080/a%7Cb"],
  ["https://fieldwork.example/app", "https://fieldwork.example/app"],
];

describe("normalizeWebsite", () => {
  it.each(CASES)("%s is stored as %s: a valid URI, the same URL, and stable", (typed, stored) => {
    expect(normalizeWebsite(typed)).toBe(stored);
    expect(isUri(stored), stored).toBe(true);
    expect(new URL(stored).hostname).toBe(new URL(typed).hostname);
    expect(normalizeWebsite(stored)).toBe(stored);
  });

  it("the CLI's schema stores websites so (and still refuses what is not an http(s) URL)", () => {
    for (const [typed, stored] of CASES.filter(([typed]) => !typed.includes("[::1]"))) {
      expect(newWaitlistSchema.parse({ name: "W", website: typed }).website).toBe(stored);
    }
    expect(newWaitlistSchema.safeParse({ name: "W", website: "ftp://example.com" }).success).toBe(false);
    expect(newWaitlistSchema.safeParse({ name: "W", website: "example.com" }).success).toBe(false);
    // 2,000 characters that each become three once percent-encoded.
    expect(newWaitlistSchema.safeParse({ name: "W", website: `https://example.com/${"|".repeat(1900)}` }).success).toBe(false);
  });

  it("keeps a stored value that is no URL at all, rather than failing", () => {
    expect(normalizeStoredWebsite("not a url")).toBe("not a url");
  });
});

describe("migration 0004: existing websites", () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "waitlist-websites-"))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** The real migrations up to `tag`, as a database had them before the next ones. */
  function migrationsUpTo(tag: string): string {
    const folder = join(dir, "migrations");
    cpSync(join(process.cwd(), "db", "migrations"), folder, { recursive: true });
    const journalPath = join(folder, "meta", "_journal.json");
    const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { tag: string }[] };
    journal.entries = journal.entries.slice(0, journal.entries.findIndex((entry) => entry.tag === tag) + 1);
    writeFileSync(journalPath, JSON.stringify(journal));
    return folder;
  }

  it("are rewritten in the stored form when the app opens the database; anything else stays as it was", () => {
    const path = join(dir, "old.db");
    openDatabase(path, migrationsUpTo("0003_search_and_inputs")).$client.close();
    const old = new Database(path);
    const insert = old.prepare("INSERT INTO waitlists (id, name, website, created_at) VALUES (?, ?, ?, 0)");
    const rows = [...CASES.map(([typed], index) => [`w${index}`, typed]), ["odd", "not a url"]];
    for (const [id, website] of rows) insert.run(id, `List ${id}`, website);
    old.close();

    const db = openDatabase(path);
    const stored = Object.fromEntries((db.$client.prepare("SELECT id, website FROM waitlists").all() as { id: string; website: string }[]).map((row) => [row.id, row.website]));
    db.$client.close();
    expect(stored).toEqual(Object.fromEntries([...CASES.map(([, normalized], index) => [`w${index}`, normalized]), ["odd", "not a url"]]));
  });
});
