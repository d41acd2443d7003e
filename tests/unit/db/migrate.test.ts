import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SIGNUP_STATUSES } from "@/lib/domain/signups/status";
import { DELIVERY_STATES } from "@/lib/domain/deliveries/queries";
import { openDatabase } from "@/db/client";
import { registerMigrationFunctions } from "@/db/migrate";
import { insertSignups } from "@/tests/support/insert-signups";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { countSignups } from "@/lib/domain/signups/counts";

const realMigrations = join(process.cwd(), "db", "migrations");
const REAL_MIGRATION_COUNT = (JSON.parse(readFileSync(join(realMigrations, "meta", "_journal.json"), "utf8")) as { entries: unknown[] }).entries.length;

/** How drizzle-kit rebuilds a table (here: adding a CHECK), with `keep` selecting the rows copied. */
function waitlistsRebuild(keep = "1 = 1"): string {
  return [
    "PRAGMA foreign_keys=OFF;",
    `CREATE TABLE \`__new_waitlists\` (
	\`id\` text PRIMARY KEY NOT NULL,
	\`name\` text NOT NULL,
	\`website\` text NOT NULL,
	\`created_at\` integer NOT NULL,
	CONSTRAINT "waitlists_name_not_empty" CHECK(length("__new_waitlists"."name") > 0)
);
`,
    `INSERT INTO \`__new_waitlists\`("id", "name", "website", "created_at") SELECT "id", "name", "website", "created_at" FROM \`waitlists\` WHERE ${keep};`,
    "DROP TABLE `waitlists`;",
    "ALTER TABLE `__new_waitlists` RENAME TO `waitlists`;",
    "PRAGMA foreign_keys=ON;",
    "CREATE INDEX `waitlists_created_at_idx` ON `waitlists` (`created_at`);",
  ].join("--> statement-breakpoint\n");
}

let dir: string;
let path: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "waitlist-migrations-"));
  path = join(dir, "test.db");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A copy of the real migrations folder with more migrations appended, as drizzle-kit would. */
function migrationsWith(...extra: { tag: string; sql: string }[]): string {
  const folder = join(dir, `migrations-${extra.map((migration) => migration.tag).join("-")}`);
  cpSync(realMigrations, folder, { recursive: true });
  const journalPath = join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { idx: number; version: string; when: number; tag: string }[] };
  for (const { tag, sql } of extra) {
    const last = journal.entries.at(-1)!;
    journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1000, tag });
    writeFileSync(join(folder, `${tag}.sql`), sql);
  }
  writeFileSync(journalPath, JSON.stringify(journal, null, 2));
  return folder;
}

/** Two waitlists with signups and their counts, on a database at `path`. */
/** A copy of the real migrations without `upgrade` (a number, "0015") and those after it: a database from before it. */
function migrationsBefore(upgrade: string): string {
  const folder = join(dir, `migrations-before-${upgrade}`);
  cpSync(realMigrations, folder, { recursive: true });
  const journalPath = join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { tag: string }[] };
  const first = journal.entries.findIndex((entry) => entry.tag.startsWith(`${upgrade}_`));
  expect(first).toBe(Number(upgrade));
  for (const entry of journal.entries.slice(first)) rmSync(join(folder, `${entry.tag}.sql`));
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, first) }, null, 2));
  return folder;
}

async function seed(): Promise<void> {
  const db = openDatabase(path);
  for (const name of ["First", "Second"]) {
    const signups = Array.from({ length: 25 }, (_, index) => ({ email: `${name}${index}@example.com`, verified: index % 2 === 0, referral: false, customInputs: "[]" }));
    insertSignups((await createWaitlist({ name, website: "https://example.com" }, db)).id, signups, db);
  }
  db.$client.close();
}

/** The columns of `signups`, migration 0018's place columns and 0023's funnel columns aside (null on every row kept from before, or read from its events). */
const LATER_COLUMNS = ["line_at", "line_pos", "utm_source", "utm_medium", "utm_campaign", "referrer", "invited_at", "completed_at", "expired_at"];
const signupColumns = (sqlite: Database.Database) => (sqlite.prepare("SELECT name FROM pragma_table_info('signups')").pluck().all() as string[]).filter((name) => !LATER_COLUMNS.includes(name));

/** Everything the migrations must keep, read from the file. */
function snapshot() {
  const sqlite = new Database(path, { readonly: true });
  try {
    const all = (query: string) => sqlite.prepare(query).all();
    return {
      waitlists: all("SELECT * FROM waitlists ORDER BY id"),
      // Migration 0018's place columns aside (null on every row it kept).
      signups: all(`SELECT ${signupColumns(sqlite).join(", ")} FROM signups ORDER BY id`),
      counts: all("SELECT * FROM signup_counts ORDER BY 1, 2, 3, 4"),
      journal: all("SELECT hash, created_at FROM __drizzle_migrations ORDER BY created_at"),
      tables: all("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"),
    };
  } finally {
    sqlite.close();
  }
}

/** The files this process holds open under the temporary folder (Linux: /proc/self/fd). */
function openFilesInDir(): string[] {
  return readdirSync("/proc/self/fd").flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target.startsWith(dir) ? [target] : [];
    } catch {
      return []; // the fd readdir itself used, closed by now
    }
  });
}

describe("migrations", () => {
  // drizzle's migrator applies a migration only when its `when` is later than the last one applied:
  // an entry stamped earlier than its predecessor (a hand-edited journal) would never run.
  it("the journal lists every migration file once, in order of idx and of when", () => {
    const { entries } = JSON.parse(readFileSync(join(realMigrations, "meta", "_journal.json"), "utf8")) as { entries: { idx: number; when: number; tag: string }[] };
    entries.forEach((entry, index) => {
      expect(entry.idx).toBe(index);
      if (index > 0) expect(entry.when, entry.tag).toBeGreaterThan(entries[index - 1]!.when);
    });
    expect(entries.map((entry) => `${entry.tag}.sql`)).toEqual(readdirSync(realMigrations).filter((name) => name.endsWith(".sql")).sort());
  });

  it("a drizzle-kit rebuild of waitlists keeps every signup (foreign keys are off while migrating, on after)", async () => {
    await seed();
    const before = snapshot();
    expect(before.signups).toHaveLength(50);
    const db = openDatabase(path, migrationsWith({ tag: "0003_rebuild_waitlists", sql: waitlistsRebuild() }));
    try {
      expect(db.$client.pragma("foreign_keys", { simple: true })).toBe(1);
      expect(db.$client.prepare("SELECT sql FROM sqlite_master WHERE name = 'waitlists'").pluck().get()).toContain("waitlists_name_not_empty");
    } finally {
      db.$client.close();
    }
    const after = snapshot();
    expect(after).toEqual({ ...before, journal: [...before.journal, { hash: expect.any(String), created_at: expect.any(Number) }] });
  });

  it("a migration that leaves a foreign-key violation fails loudly and rolls back everything", async () => {
    await seed();
    const before = snapshot();
    const folder = migrationsWith(
      { tag: "0003_add_table", sql: "CREATE TABLE `extra` (`id` integer PRIMARY KEY);" },
      { tag: "0004_rebuild_losing_a_waitlist", sql: waitlistsRebuild(`"name" <> 'Second'`) },
    );
    expect(() => openDatabase(path, folder)).toThrow(
      /^migration rolled back: it would leave 25 foreign-key violations: signups rowid \d+ → waitlists; .*; and 15 more$/,
    );
    expect(snapshot()).toEqual(before);
  });

  it.runIf(existsSync("/proc/self/fd"))("a failed open closes its connection", async () => {
    await seed();
    expect(() => openDatabase(path, migrationsWith({ tag: "0003_broken", sql: "SELECT * FROM no_such_table;" }))).toThrow(/no_such_table/);
    expect(openFilesInDir()).toEqual([]);
  });

  it("databases migrated by drizzle's migrate() keep their journal: nothing re-runs, and new migrations apply once", () => {
    const sqlite = new Database(path);
    registerMigrationFunctions(sqlite);
    migrate(drizzle(sqlite), { migrationsFolder: realMigrations });
    sqlite.close();
    const byDrizzle = snapshot().journal;
    expect(byDrizzle).toHaveLength(REAL_MIGRATION_COUNT);

    openDatabase(path).$client.close();
    expect(snapshot().journal).toEqual(byDrizzle);
    // A new file records exactly what drizzle records.
    const fresh = join(dir, "fresh.db");
    openDatabase(fresh).$client.close();
    const freshJournal = new Database(fresh, { readonly: true });
    expect(freshJournal.prepare("SELECT hash, created_at FROM __drizzle_migrations ORDER BY created_at").all()).toEqual(byDrizzle);
    freshJournal.close();

    const folder = migrationsWith({ tag: "9003_rebuild_waitlists", sql: waitlistsRebuild() });
    openDatabase(path, folder).$client.close();
    openDatabase(path, folder).$client.close();
    expect(snapshot().journal).toHaveLength(REAL_MIGRATION_COUNT + 1);
  });

  it("opening an up-to-date database does not wait for another connection's write lock", () => {
    openDatabase(path).$client.close();
    const other = new Database(path);
    other.exec("BEGIN IMMEDIATE");
    try {
      const started = performance.now();
      openDatabase(path).$client.close();
      expect(performance.now() - started).toBeLessThan(1000);
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
  });
  it("a fresh database has no deferred_derivations or new_key_reveals table, and no trigger waits for a deferral (WHEN)", () => {
    openDatabase(path).$client.close();
    const { tables } = snapshot();
    const names = (tables as { name: string }[]).map((table) => table.name);
    expect(names).toEqual(expect.arrayContaining(["signups", "signup_counts", "signup_inputs", "signup_input_counts", "api_keys", "sessions"]));
    expect(names).not.toContain("deferred_derivations");
    expect(names).not.toContain("new_key_reveals");
    const sqlite = new Database(path, { readonly: true });
    try {
      const triggers = sqlite.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name").all() as { name: string; sql: string }[];
      expect(triggers.map((trigger) => trigger.name)).toEqual(expect.arrayContaining(["signups_derive_after_insert", "signup_inputs_count_after_insert", "signups_derive_after_delete", "signups_derive_after_update"]));
      // The only WHENs left are migration 0012's (its triggers work for signups that are, or were, not
      // waiting), 0018's (the moved signups' counts, for signups that referrals moved)
      // and 0023's (the funnel's: which change moves which of its counts; none waits for a deferral).
      for (const trigger of triggers) {
        if (trigger.name.startsWith("funnel_")) expect(trigger.sql, trigger.name).not.toMatch(/deferred_derivations/);
        else expect(trigger.sql, trigger.name).not.toMatch(/deferred_derivations|\bWHEN\b(?! (NEW|OLD)\.`status` <> 'waiting' BEGIN| (NEW|OLD)\.`line_at` IS NOT NULL AND (NEW|OLD)\.`status` = 'waiting'\nBEGIN)/);
      }
    } finally {
      sqlite.close();
    }
  });

  it("a database from before migration 0009 upgrades: both tables go, its data stays, and every writer still derives", async () => {
    // The migrations up to 0008, as a database made before this change has them.
    const folder = migrationsBefore("0009");

    const old = openDatabase(path, folder);
    const waitlistId = (await createWaitlist({ name: "Old", website: "https://example.com" }, old)).id;
    const insert = old.$client.prepare("INSERT INTO signups (waitlist_id, email, verified, referral, custom_inputs, created_at) VALUES (?, ?, ?, 0, ?, ?)");
    for (let index = 0; index < 10; index++) insert.run(waitlistId, `old${index}@example.com`, index % 2, `[{"label":"plan","value":"p${index % 3}"}]`, Date.UTC(2026, 0, 1 + index));
    old.$client.prepare("INSERT INTO new_key_reveals (ticket_hash, session_key_id, sealed, expires_at) VALUES (x'00', 'k', x'01', 0)").run();
    old.$client.close();
    const before = snapshot();

    const db = openDatabase(path);
    try {
      const sqlite = db.$client;
      const tables = sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
      expect(tables).not.toContain("deferred_derivations");
      expect(tables).not.toContain("new_key_reveals");
      const pairCounts = () => sqlite.prepare("SELECT value, sum(count) AS count FROM signup_input_counts WHERE waitlist_id = ? GROUP BY value ORDER BY value").all(waitlistId);
      expect(pairCounts()).toEqual([
        { value: "p0", count: 4 },
        { value: "p1", count: 3 },
        { value: "p2", count: 3 },
      ]);
      // A plain insert (the triggers) and the bulk writer both still derive.
      sqlite.prepare("INSERT INTO signups (waitlist_id, email, verified, referral, custom_inputs, created_at) VALUES (?, 'plain@example.com', 1, 0, '[{\"label\":\"plan\",\"value\":\"p0\"}]', ?)").run(waitlistId, Date.UTC(2026, 0, 20));
      expect(insertSignups(waitlistId, [{ email: "bulk@example.com", verified: true, referral: false, customInputs: '[{"label":"plan","value":"p1"}]' }], db, Date.UTC(2026, 0, 21))).toBe(1);
      expect(pairCounts()).toEqual([
        { value: "p0", count: 5 },
        { value: "p1", count: 4 },
        { value: "p2", count: 3 },
      ]);
      expect(sqlite.prepare("SELECT sum(count) AS n FROM signup_counts WHERE waitlist_id = ?").get(waitlistId)).toEqual({ n: 12 });
      expect(sqlite.prepare("SELECT count(*) AS n FROM signup_email_search WHERE signup_email_search MATCH 'ple'").get()).toEqual({ n: 12 });
      expect(() => sqlite.exec("INSERT INTO signup_email_search (signup_email_search, rank) VALUES ('integrity-check', 1)")).not.toThrow();
    } finally {
      db.$client.close();
    }
    expect(before.signups).toHaveLength(10);
    expect(before.tables).toContainEqual({ name: "new_key_reveals" });
  });

  it("a fresh database allows exactly the statuses of status.ts, and has the events and idempotent_requests tables", async () => {
    const db = openDatabase(path);
    try {
      const sqlite = db.$client;
      const waitlistId = (await createWaitlist({ name: "Fresh", website: "https://example.com" }, db)).id;
      const insert = sqlite.prepare("INSERT INTO signups (waitlist_id, email, custom_inputs, created_at, status) VALUES (?, ?, '[]', 0, ?)");
      for (const status of SIGNUP_STATUSES) expect(() => insert.run(waitlistId, `${status}@example.com`, status)).not.toThrow();
      expect(() => insert.run(waitlistId, "x@example.com", "approved")).toThrow(/CHECK constraint failed/);
      const tables = sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
      expect(tables).toEqual(expect.arrayContaining(["events", "idempotent_requests"]));
      expect(() => sqlite.prepare("INSERT INTO events (type, waitlist_id, created_at, payload) VALUES ('t', ?, 0, 'not json')").run(waitlistId)).toThrow(/CHECK constraint failed/);
    } finally {
      db.$client.close();
    }
  });

  it("a database from before migration 0025 upgrades: its counts WITHOUT ROWID, every count kept, and the triggers still keep them", async () => {
    const old = openDatabase(path, migrationsBefore("0025"));
    const waitlistId = (await createWaitlist({ name: "Counted", website: "https://example.com" }, old)).id;
    insertSignups(waitlistId, Array.from({ length: 30 }, (_, index) => ({ email: `c${index}@example.com`, verified: index % 2 === 0, referral: index % 3 === 0, customInputs: JSON.stringify([{ label: "role", value: index % 4 === 0 ? "Engineer" : "Designer" }]), createdAt: Date.UTC(2026, 9, 1 + (index % 5)), status: index < 20 ? "waiting" : "invited" })), old);
    const counts = (sqlite: Database.Database) => ({
      signups: sqlite.prepare("SELECT * FROM signup_counts ORDER BY 1, 2, 3, 4, 5").all(),
      inputs: sqlite.prepare("SELECT * FROM signup_input_status_counts ORDER BY 1, 2, 3, 4, 5, 6").all(),
    });
    const before = counts(old.$client);
    expect(before.inputs.length).toBeGreaterThan(0);
    old.$client.close();

    const db = openDatabase(path);
    try {
      const rowidFree = db.$client.prepare("SELECT name FROM sqlite_master WHERE name IN ('signup_counts', 'signup_input_status_counts') AND sql LIKE '%WITHOUT ROWID%' ORDER BY 1").pluck().all();
      expect(rowidFree).toEqual(["signup_counts", "signup_input_status_counts"]);
      expect(counts(db.$client)).toEqual(before);
      expect(db.$client.pragma("legacy_alter_table", { simple: true })).toBe(0);
      // The triggers on signups still count: a status change, an insert and a delete.
      const { total, statusFacet } = await countSignups({ waitlistId }, db);
      expect(statusFacet).toMatchObject({ waiting: 20, invited: 10, rejected: 0 });
      db.$client.prepare("UPDATE signups SET status = 'rejected', status_changed_at = 1 WHERE email = 'c0@example.com'").run();
      db.$client.prepare("DELETE FROM signups WHERE email = 'c1@example.com'").run();
      insertSignups(waitlistId, [{ email: "late@example.com", verified: false, referral: false, customInputs: "[]" }], db);
      const after = await countSignups({ waitlistId }, db);
      expect(after.total).toBe(total);
      expect(after.statusFacet).toMatchObject({ waiting: 19, invited: 10, rejected: 1 });
      expect(db.$client.prepare("SELECT sum(count) FROM signup_input_status_counts WHERE status = 'rejected'").pluck().get()).toBe(1);
      expect(db.$client.prepare("PRAGMA integrity_check").pluck().get()).toBe("ok");
    } finally {
      db.$client.close();
    }
  });

  it("a database from before migration 0026 upgrades: its email search merges 16 segments of a level, not 4 (all of a level at 64, not 16), and still finds every address", async () => {
    const automerge = (sqlite: Database.Database) => sqlite.prepare("SELECT v FROM signup_email_search_config WHERE k = 'automerge'").pluck().get();
    const crisismerge = (sqlite: Database.Database) => sqlite.prepare("SELECT v FROM signup_email_search_config WHERE k = 'crisismerge'").pluck().get();
    const old = openDatabase(path, migrationsBefore("0026"));
    const waitlistId = (await createWaitlist({ name: "Searched", website: "https://example.com" }, old)).id;
    insertSignups(waitlistId, [{ email: "ada@example.com", verified: false, referral: false, customInputs: "[]" }], old);
    expect(automerge(old.$client)).toBeUndefined();
    old.$client.close();

    const db = openDatabase(path);
    try {
      expect(automerge(db.$client)).toBe(16);
      expect(crisismerge(db.$client)).toBe(64);
      // Many small segments (a statement each, as joins write them) and the search still finds each one.
      const insert = db.$client.prepare("INSERT INTO signups (waitlist_id, email, verified, referral, custom_inputs, created_at) VALUES (?, ?, 0, 0, '[]', ?)");
      const count = db.$client.prepare("SELECT count(*) FROM signup_email_search WHERE email LIKE ?").pluck();
      db.$client.transaction(() => {
        for (let index = 0; index < 200; index++) db.$client.transaction(() => insert.run(waitlistId, `person${index}@searched.example`, index))();
      })();
      expect(count.get("%searched.example")).toBe(200);
      expect(count.get("%person17@%")).toBe(1);
      expect(count.get("ada@example%")).toBe(1);
      // The index matches its content table (an integrity-check that finds a difference throws).
      expect(() => db.$client.prepare("INSERT INTO signup_email_search (signup_email_search, rank) VALUES ('integrity-check', 1)").run()).not.toThrow();
    } finally {
      db.$client.close();
    }
  });

  it("a database from before migration 0015 upgrades: each referral recorded, counted unless unconfirmed on a list that verifies", async () => {
    const folder = migrationsBefore("0015");

    const old = openDatabase(path, folder);
    const open = (await createWaitlist({ name: "Open", website: "https://example.com" }, old)).id;
    const verifying = (await createWaitlist({ name: "Verifying", website: "https://example.com" }, old)).id;
    old.$client.prepare("INSERT INTO join_settings (waitlist_id, joining, verification, updated_at) VALUES (?, 'open', 1, 0)").run(verifying);
    const insert = old.$client.prepare("INSERT INTO signups (waitlist_id, email, verified, referral, custom_inputs, created_at, referred_by) VALUES (?, ?, ?, ?, '[]', ?, ?)");
    const id = (result: { lastInsertRowid: number | bigint }) => Number(result.lastInsertRowid);
    const openReferrer = id(insert.run(open, "a@example.com", 0, 0, 1000, null));
    const openReferred = id(insert.run(open, "b@example.com", 0, 1, 2000, openReferrer));
    const referrer = id(insert.run(verifying, "c@example.com", 1, 0, 3000, null));
    const confirmed = id(insert.run(verifying, "d@example.com", 1, 1, 4000, referrer));
    const unconfirmed = id(insert.run(verifying, "e@example.com", 0, 1, 5000, referrer));
    insert.run(verifying, "imported@example.com", 0, 1, 6000, null);
    old.$client.close();

    const db = openDatabase(path);
    try {
      expect(db.$client.prepare("SELECT signup_id, referrer_id, waitlist_id, state, counted_at FROM referrals ORDER BY signup_id").all()).toEqual([
        { signup_id: openReferred, referrer_id: openReferrer, waitlist_id: open, state: "counted", counted_at: 2000 },
        { signup_id: confirmed, referrer_id: referrer, waitlist_id: verifying, state: "counted", counted_at: 4000 },
        { signup_id: unconfirmed, referrer_id: referrer, waitlist_id: verifying, state: "unverified", counted_at: null },
      ]);
      expect(db.$client.prepare("SELECT count(*) FROM signups").pluck().get()).toBe(6);
      expect(db.$client.prepare("SELECT count(*) FROM rate_limits").pluck().get()).toBe(0);
    } finally {
      db.$client.close();
    }
  });

  it("a database from before migration 0017 upgrades: referrals keep their rows, states and indexes; join settings flag disposable addresses", async () => {
    const folder = migrationsBefore("0017");

    const old = openDatabase(path, folder);
    const waitlist = (await createWaitlist({ name: "Old", website: "https://example.com" }, old)).id;
    old.$client.prepare("INSERT INTO join_settings (waitlist_id, joining, updated_at) VALUES (?, 'open', 0)").run(waitlist);
    const insert = old.$client.prepare("INSERT INTO signups (waitlist_id, email, verified, referral, custom_inputs, created_at, referred_by) VALUES (?, ?, 0, ?, '[]', ?, ?)");
    const referrer = Number(insert.run(waitlist, "a@example.com", 0, 1000, null).lastInsertRowid);
    const counted = Number(insert.run(waitlist, "b@example.com", 1, 2000, referrer).lastInsertRowid);
    const lookalike = Number(insert.run(waitlist, "a+1@example.com", 1, 3000, referrer).lastInsertRowid);
    const record = old.$client.prepare("INSERT INTO referrals (signup_id, referrer_id, waitlist_id, state, counted_at) VALUES (?, ?, ?, ?, ?)");
    record.run(counted, referrer, waitlist, "counted", 2000);
    record.run(lookalike, referrer, waitlist, "lookalike", null);
    const indexesBefore = old.$client.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'referrals' ORDER BY name").all();
    old.$client.close();

    const db = openDatabase(path);
    try {
      expect(db.$client.prepare("SELECT signup_id, referrer_id, waitlist_id, state, counted_at FROM referrals ORDER BY signup_id").all()).toEqual([
        { signup_id: counted, referrer_id: referrer, waitlist_id: waitlist, state: "counted", counted_at: 2000 },
        { signup_id: lookalike, referrer_id: referrer, waitlist_id: waitlist, state: "lookalike", counted_at: null },
      ]);
      expect(db.$client.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'referrals' ORDER BY name").all()).toEqual(indexesBefore);
      expect(db.$client.prepare("SELECT disposable FROM join_settings").pluck().get()).toBe("flag");
      db.$client.prepare("UPDATE referrals SET state = 'flagged', counted_at = NULL WHERE signup_id = ?").run(counted);
      expect(() => db.$client.prepare("UPDATE referrals SET state = 'held' WHERE signup_id = ?").run(counted)).toThrow(/CHECK constraint failed/);
      db.$client.prepare("DELETE FROM signups WHERE id = ?").run(referrer);
      expect(db.$client.prepare("SELECT count(*) FROM referrals").pluck().get()).toBe(0);
    } finally {
      db.$client.close();
    }
  });

  it("a database from before migration 0011 upgrades: the sender starts after the newest event, and deliveries go with their waitlist", async () => {
    const folder = migrationsBefore("0011");

    const old = openDatabase(path, folder);
    const waitlistId = (await createWaitlist({ name: "Old", website: "https://example.com" }, old)).id;
    const insertEvent = old.$client.prepare("INSERT INTO events (type, waitlist_id, created_at, payload) VALUES ('signups.imported', ?, 0, '{}')");
    for (let index = 0; index < 3; index++) insertEvent.run(waitlistId);
    old.$client.close();

    const db = openDatabase(path);
    try {
      const sqlite = db.$client;
      // The scheduler's lease (migration 0022) sits beside the sender's.
      expect(sqlite.prepare("SELECT name, holder, lease_until, last_event_id FROM delivery_sender ORDER BY name DESC").all()).toEqual([
        { name: "sender", holder: null, lease_until: null, last_event_id: 3 },
        { name: "scheduler", holder: null, lease_until: null, last_event_id: 0 },
      ]);
      sqlite.prepare("INSERT INTO webhook_endpoints (id, url, secret, created_at, updated_at) VALUES ('e', 'https://x.example', 'whsec_x', 0, 0)").run();
      const insertDelivery = sqlite.prepare("INSERT INTO deliveries (event_id, event_type, waitlist_id, channel, endpoint_id, state, created_at) VALUES (1, 't', ?, ?, ?, ?, 0)");
      insertDelivery.run(waitlistId, "webhook", "e", "pending");
      expect(() => insertDelivery.run(waitlistId, "email", "e", "pending")).toThrow(/CHECK constraint failed/);
      expect(() => insertDelivery.run(waitlistId, "webhook", "e", "lost")).toThrow(/CHECK constraint failed/);
      // Exactly the states the query layer knows.
      for (const state of DELIVERY_STATES) expect(() => insertDelivery.run(waitlistId, "webhook", "e", state)).not.toThrow();
      sqlite.prepare("DELETE FROM waitlists WHERE id = ?").run(waitlistId);
      expect(sqlite.prepare("SELECT count(*) FROM deliveries").pluck().get()).toBe(0);
      expect(sqlite.prepare("SELECT count(*) FROM webhook_endpoints").pluck().get()).toBe(1);
    } finally {
      db.$client.close();
    }
  });

  it("a database from before migration 0016 upgrades: deliveries keep their rows and ids; an email may answer no event, a webhook may not", async () => {
    const folder = migrationsBefore("0016");

    const old = openDatabase(path, folder);
    const waitlistId = (await createWaitlist({ name: "Old", website: "https://example.com" }, old)).id;
    old.$client.prepare("INSERT INTO events (type, waitlist_id, signup_id, created_at, payload) VALUES ('signup.created', ?, 7, 0, '{}')").run(waitlistId);
    old.$client.prepare("INSERT INTO webhook_endpoints (id, url, secret, created_at, updated_at) VALUES ('e', 'https://x.example', 'whsec_x', 0, 0)").run();
    old.$client.prepare("INSERT INTO deliveries (id, event_id, event_type, waitlist_id, signup_id, channel, endpoint_id, body, state, next_attempt_at, created_at) VALUES (41, 1, 'signup.created', ?, 7, 'webhook', 'e', '{}', 'pending', 5, 1)").run(waitlistId);
    old.$client.prepare("INSERT INTO deliveries (id, event_id, event_type, waitlist_id, signup_id, channel, recipient, subject, body, state, created_at) VALUES (42, 1, 'signup.created', ?, 7, 'email', 'a@example.com', 'S', 'B', 'succeeded', 2)").run(waitlistId);
    const before = old.$client.prepare("SELECT * FROM deliveries ORDER BY id").all();
    expect(() => old.$client.prepare("INSERT INTO deliveries (event_id, event_type, waitlist_id, channel, state, created_at) VALUES (NULL, 'already_on_list', ?, 'email', 'pending', 0)").run(waitlistId)).toThrow(/NOT NULL/);
    old.$client.close();

    const db = openDatabase(path);
    try {
      const sqlite = db.$client;
      expect(sqlite.prepare("SELECT * FROM deliveries ORDER BY id").all()).toEqual(before);
      const insert = sqlite.prepare("INSERT INTO deliveries (event_id, event_type, waitlist_id, channel, endpoint_id, state, created_at) VALUES (?, ?, ?, ?, ?, 'pending', 0)");
      expect(() => insert.run(null, "already_on_list", waitlistId, "email", null)).not.toThrow();
      expect(() => insert.run(null, "signup.created", waitlistId, "webhook", "e")).toThrow(/CHECK constraint failed/);
      expect(() => insert.run(1, "signup.created", waitlistId, "email", "e")).toThrow(/CHECK constraint failed/);
      // Still cascades: the event takes its deliveries, the waitlist the rest.
      sqlite.prepare("DELETE FROM events").run();
      expect(sqlite.prepare("SELECT count(*) FROM deliveries").pluck().get()).toBe(1);
      sqlite.prepare("DELETE FROM waitlists").run();
      expect(sqlite.prepare("SELECT count(*) FROM deliveries").pluck().get()).toBe(0);
      expect(sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'deliveries' ORDER BY name").pluck().all()).toEqual(["deliveries_due_idx", "deliveries_endpoint_idx", "deliveries_event_idx", "deliveries_signup_idx", "deliveries_waitlist_idx"]);
    } finally {
      db.$client.close();
    }
  });

  it("a database from before migration 0010 upgrades: every signup waiting, counts by status exact, and a status change moves them", async () => {
    const folder = migrationsBefore("0010");

    const old = openDatabase(path, folder);
    const waitlistId = (await createWaitlist({ name: "Old", website: "https://example.com" }, old)).id;
    const insert = old.$client.prepare("INSERT INTO signups (waitlist_id, email, verified, referral, custom_inputs, created_at) VALUES (?, ?, ?, 0, '[]', ?)");
    for (let index = 0; index < 10; index++) insert.run(waitlistId, `old${index}@example.com`, index % 2, Date.UTC(2026, 0, 1 + (index % 3)));
    old.$client.close();

    const db = openDatabase(path);
    try {
      const sqlite = db.$client;
      const derived = () => sqlite.prepare("SELECT verified, referral, status, day, count FROM signup_counts ORDER BY 1, 2, 3, 4").all();
      const direct = () => sqlite.prepare("SELECT verified, referral, status, created_at / 86400000 AS day, count(*) AS count FROM signups GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4").all();
      expect(sqlite.prepare("SELECT DISTINCT status FROM signups").pluck().all()).toEqual(["waiting"]);
      expect(derived()).toEqual(direct());
      // The update trigger moves a signup's count to its new status; the bulk writer and plain inserts count by status.
      sqlite.prepare("UPDATE signups SET status = 'invited' WHERE email IN ('old1@example.com', 'old4@example.com')").run();
      sqlite.prepare("INSERT INTO signups (waitlist_id, email, custom_inputs, created_at, status) VALUES (?, 'plain@example.com', '[]', 0, 'rejected')").run(waitlistId);
      expect(insertSignups(waitlistId, [{ email: "bulk@example.com", verified: true, referral: false, customInputs: "[]", status: "completed", statusChangedAt: 5 }], db, Date.UTC(2026, 0, 5))).toBe(1);
      sqlite.prepare("DELETE FROM signups WHERE email = 'old4@example.com'").run();
      expect(derived()).toEqual(direct());
      expect(sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'signups_changed_status_idx'").pluck().get()).toBe("signups_changed_status_idx");
    } finally {
      db.$client.close();
    }
  });
});

describe("migration 0014: ids never reused, and a body per event", () => {
  /** A database migrated up to 0013 at `path`: two waitlists, referrals, an invitation, events, a delivery, and its newest signup erased. */
  async function databaseAt0013() {
    const folder = migrationsBefore("0014");

    const old = openDatabase(path, folder);
    const sqlite = old.$client;
    const first = (await createWaitlist({ name: "First", website: "https://example.com" }, old)).id;
    const second = (await createWaitlist({ name: "Second", website: "https://example.com" }, old)).id;
    const inputs = JSON.stringify([{ label: "company", value: "Acme" }]);
    // Plain inserts, whose triggers derive as the bulk writer of that time did: today's bulk writer knows the columns and triggers of later migrations.
    const insert = sqlite.prepare("INSERT INTO signups (waitlist_id, email, verified, referral, custom_inputs, created_at) VALUES (?, ?, ?, ?, ?, ?)");
    for (let index = 0; index < 20; index++) insert.run(first, `first${index}@example.com`, index % 2 === 0 ? 1 : 0, index > 10 ? 1 : 0, inputs, Date.UTC(2026, 0, 1));
    for (let index = 0; index < 5; index++) insert.run(second, `second${index}@example.com`, 1, 0, "[]", Date.UTC(2026, 0, 2));
    const idOf = (email: string) => sqlite.prepare("SELECT id FROM signups WHERE email = ?").pluck().get(email) as number;
    sqlite.prepare("UPDATE signups SET referral_code = 'code' || id").run();
    sqlite.prepare("UPDATE signups SET referred_by = ? WHERE email IN ('first11@example.com', 'first12@example.com')").run(idOf("first1@example.com"));
    sqlite.prepare("UPDATE signups SET status = 'invited', status_changed_at = ? WHERE email = 'first3@example.com'").run(Date.UTC(2026, 0, 3));
    const event = sqlite.prepare("INSERT INTO events (type, waitlist_id, signup_id, created_at, payload) VALUES (?, ?, ?, ?, ?)");
    event.run("signups.imported", first, null, Date.UTC(2026, 0, 1), '{"imported":20,"skipped_duplicates":0,"format":"csv"}');
    event.run("signup.invited", first, idOf("first3@example.com"), Date.UTC(2026, 0, 3), '{"from":"waiting","to":"invited"}');
    // The newest signup joins, is delivered to a webhook, and is erased: its id is the highest ever given.
    const newest = Number(sqlite.prepare("INSERT INTO signups (waitlist_id, email, custom_inputs, created_at) VALUES (?, 'newest@example.com', '[]', ?)").run(second, Date.UTC(2026, 0, 4)).lastInsertRowid);
    event.run("signup.created", second, newest, Date.UTC(2026, 0, 4), "{}");
    sqlite.prepare("INSERT INTO webhook_endpoints (id, url, secret, created_at, updated_at) VALUES ('e', 'https://x.example', 'whsec_x', 0, 0)").run();
    const delivery = sqlite.prepare("INSERT INTO deliveries (event_id, event_type, waitlist_id, signup_id, channel, endpoint_id, state, created_at) VALUES (?, ?, ?, ?, 'webhook', 'e', 'succeeded', 0)");
    delivery.run(1, "signups.imported", first, null);
    delivery.run(3, "signup.created", second, newest);
    sqlite.prepare("DELETE FROM signups WHERE id = ?").run(newest);
    sqlite.prepare("DELETE FROM deliveries WHERE signup_id = ?").run(newest);
    event.run("signup.erased", second, newest, Date.UTC(2026, 0, 5), "{}");
    const ids = { first1: idOf("first1@example.com"), first3: idOf("first3@example.com") };
    sqlite.close();
    return { first, second, newest, ids };
  }

  function derivedState(sqlite: Database.Database) {
    const all = (query: string) => sqlite.prepare(query).all();
    return {
      // Migration 0018's place columns aside (null on every row it kept).
      signups: all(`SELECT ${signupColumns(sqlite).join(", ")} FROM signups ORDER BY id`),
      counts: all("SELECT * FROM signup_counts ORDER BY 1, 2, 3, 4, 5"),
      inputs: all("SELECT * FROM signup_inputs ORDER BY signup_id, label, value"),
      inputCounts: all("SELECT * FROM signup_input_counts ORDER BY 1, 2, 3, 4, 5"),
      statusCounts: all("SELECT * FROM signup_input_status_counts ORDER BY 1, 2, 3, 4, 5, 6"),
      search: all("SELECT rowid FROM signup_email_search WHERE email LIKE '%first1%' ORDER BY rowid"),
      deliveries: all("SELECT id, event_id, signup_id FROM deliveries ORDER BY id"),
    };
  }

  const schemaOf = (sqlite: Database.Database, type: string) =>
    sqlite.prepare("SELECT name, sql FROM sqlite_master WHERE type = ? AND name NOT LIKE 'sqlite_%' ORDER BY name").all(type) as { name: string; sql: string }[];

  it("keeps every id, row, derived count, search entry, index, trigger and foreign key, and gives ids above every id ever given", async () => {
    const { first, second, newest, ids } = await databaseAt0013();
    const before = new Database(path, { readonly: true });
    const state = derivedState(before);
    const triggers = schemaOf(before, "trigger");
    const indexes = schemaOf(before, "index");
    const views = schemaOf(before, "view");
    before.close();
    expect(state.signups).toHaveLength(25);
    expect(triggers.filter((trigger) => trigger.sql.includes("ON `signups`"))).toHaveLength(9);

    const db = openDatabase(path);
    try {
      const sqlite = db.$client;
      expect(derivedState(sqlite)).toEqual(state);
      // Later migrations may add objects of their own: every object of 0013 is still there, unchanged.
      const kept = (type: string, before: { name: string }[]) => schemaOf(sqlite, type).filter((object) => before.some((each) => each.name === object.name));
      expect(kept("trigger", triggers)).toEqual(triggers);
      expect(kept("index", indexes)).toEqual(indexes);
      expect(kept("view", views)).toEqual(views);
      for (const table of ["signups", "deliveries"]) expect(sqlite.prepare("SELECT sql FROM sqlite_master WHERE name = ?").pluck().get(table)).toMatch(/`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL/);
      expect(() => sqlite.prepare("INSERT INTO signup_email_search (signup_email_search) VALUES ('integrity-check')").run()).not.toThrow();
      expect(sqlite.prepare("PRAGMA integrity_check").pluck().get()).toBe("ok");

      // The next signup and delivery get ids never given before: the erased newest id stays retired.
      const next = Number(sqlite.prepare("INSERT INTO signups (waitlist_id, email, custom_inputs, created_at, status) VALUES (?, 'next@example.com', '[{\"label\":\"company\",\"value\":\"Acme\"}]', 0, 'invited')").run(second).lastInsertRowid);
      expect(next).toBe(newest + 1);
      // A delivery's too, once this migration has run (the erased newest one's id before it is remembered nowhere).
      const insertDelivery = sqlite.prepare("INSERT INTO deliveries (event_id, event_type, waitlist_id, channel, endpoint_id, created_at) VALUES (1, 't', ?, 'webhook', 'e', 0)");
      const deliveryId = Number(insertDelivery.run(first).lastInsertRowid);
      sqlite.prepare("DELETE FROM deliveries WHERE id = ?").run(deliveryId);
      expect(Number(insertDelivery.run(first).lastInsertRowid)).toBe(deliveryId + 1);
      // The triggers on the new table derive as before: search, counts, inputs and status counts.
      expect(sqlite.prepare("SELECT rowid FROM signup_email_search WHERE email LIKE '%next@example%'").pluck().all()).toEqual([next]);
      expect(sqlite.prepare("SELECT count FROM signup_counts WHERE waitlist_id = ? AND status = 'invited'").pluck().get(second)).toBe(1);
      expect(sqlite.prepare("SELECT count FROM signup_input_status_counts WHERE waitlist_id = ? AND status = 'invited'").pluck().get(second)).toBe(1);
      sqlite.prepare("DELETE FROM signups WHERE id = ?").run(next);
      expect(sqlite.prepare("SELECT count(*) FROM signup_input_status_counts WHERE waitlist_id = ?").pluck().get(second)).toBe(0);
      expect(sqlite.prepare("SELECT count(*) FROM signup_inputs WHERE signup_id = ?").pluck().get(next)).toBe(0);
      // The self-reference still holds: an erased referrer leaves its referred signups without one.
      sqlite.prepare("DELETE FROM signups WHERE id = ?").run(ids.first1);
      expect(sqlite.prepare("SELECT referred_by FROM signups WHERE email IN ('first11@example.com', 'first12@example.com')").pluck().all()).toEqual([null, null]);
      expect(sqlite.prepare("PRAGMA foreign_key_check").all()).toEqual([]);

      // Every event has a body: the one the feed showed until now.
      const bodies = sqlite.prepare("SELECT type, body FROM events ORDER BY id").all() as { type: string; body: string }[];
      expect(bodies.map(({ type, body }) => ({ type, body: JSON.parse(body) as unknown }))).toEqual([
        { type: "signups.imported", body: { type: "signups.imported", timestamp: "2026-01-01T00:00:00.000Z", data: { waitlist_id: first, imported: 20, skipped_duplicates: 0, format: "csv" } } },
        {
          type: "signup.invited",
          body: {
            type: "signup.invited",
            timestamp: "2026-01-03T00:00:00.000Z",
            data: {
              waitlist_id: first,
              signup: {
                email: "first3@example.com",
                verified: false,
                referral: false,
                custom_inputs: [{ label: "company", value: "Acme" }],
                created_at: "2026-01-01T00:00:00.000Z",
                id: String(ids.first3),
                status: "invited",
                status_changed_at: "2026-01-03T00:00:00.000Z",
              },
              previous_status: "waiting",
            },
          },
        },
        { type: "signup.created", body: { type: "signup.created", timestamp: "2026-01-04T00:00:00.000Z", data: { waitlist_id: second, signup: { id: String(newest) } } } },
        { type: "signup.erased", body: { type: "signup.erased", timestamp: "2026-01-05T00:00:00.000Z", data: { waitlist_id: second, signup: { id: String(newest) } } } },
      ]);
    } finally {
      db.$client.close();
    }
  });
});
