import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startSqliteBulkInsert } from "@/lib/domain/signups/bulk-insert";
import { inputPairs } from "@/lib/domain/signups/input-pairs";
import type { NewSignup } from "@/lib/domain/signups/queries";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { insertSignups } from "@/tests/support/insert-signups";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

// The bulk writer (the app's one writer of signups: imports, the demo seed) derives in JavaScript what
// the schema derives in SQL for one row at a time (the view signup_input_pairs and the insert triggers,
// migration 0003, which anything inserting with plain SQL fires): both must give the same rows.

const DAY = 86_400_000;
const BASE = Date.UTC(2026, 2, 1);

let temp: TempDatabase;
beforeEach(() => {
  temp = tempDatabase();
});
afterEach(() => temp.close());

/** A plain SQL insert, as a hand-written statement would make it: the schema's triggers derive the row. */
function insertBySql(waitlistId: string, signup: NewSignup, createdAt: number): boolean {
  const statement = temp.db.$client.prepare<[string, string, number, number, string, number]>(
    "INSERT INTO signups (waitlist_id, email, verified, referral, custom_inputs, created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (waitlist_id, lower(email)) DO NOTHING",
  );
  return statement.run(waitlistId, signup.email, signup.verified ? 1 : 0, signup.referral ? 1 : 0, signup.customInputs, signup.createdAt ?? createdAt).changes === 1;
}

/** Deterministic pseudo-random numbers, so a failure reproduces. */
function random(seed: number) {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
}

const SCALARS: unknown[] = ["Acme", "", "x\u0000y", "ünïcødé", "a\"b", 0, -0, 7, -12.5, 1e21, 1.5e-7, 12345678901234567890, true, false, null, [1], { deep: 1 }];
const LABELS = ["company", "role", "", "label", "value", "a.b", "$[0]", "ключ", "123"];

/** Custom inputs of every shape: label/value objects, property objects, odd values and repeats. */
function randomInputs(next: () => number): unknown[] {
  const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)]!;
  return Array.from({ length: Math.floor(next() * 4) }, () => {
    if (next() < 0.5) return { label: next() < 0.9 ? pick(LABELS) : pick(SCALARS), value: pick(SCALARS) };
    return Object.fromEntries(Array.from({ length: 1 + Math.floor(next() * 3) }, () => [pick(LABELS), pick(SCALARS)]));
  });
}

function signups(count: number, seed: number): NewSignup[] {
  const next = random(seed);
  return Array.from({ length: count }, (_, index) => ({
    email: `${index % 9 === 0 ? "Jane" : "user"}.${index}@example.com`,
    verified: next() < 0.6,
    referral: next() < 0.3,
    customInputs: JSON.stringify(randomInputs(next)),
    createdAt: BASE + Math.floor(next() * 30 * DAY),
  }));
}

describe("inputPairs", () => {
  it("gives exactly the pairs of the SQL view for every shape of input", async () => {
    const waitlistId = (await createWaitlist({ name: "Pairs", website: "https://e.com" }, temp.db)).id;
    const rows = signups(3000, 5);
    expect(insertSignups(waitlistId, rows, temp.db, BASE)).toBe(rows.length);
    const ids = rows.map((row) => temp.db.$client.prepare<[string], { id: number }>("SELECT id FROM signups WHERE email = ?").get(row.email)!.id);
    const view = temp.db.$client.prepare<[number], { label: string; value: string }>("SELECT DISTINCT label, value FROM signup_input_pairs WHERE signup_id = ?");
    const sorted = (pairs: { label: string; value: string }[]) => pairs.map(({ label, value }) => JSON.stringify([label, value])).sort();
    rows.forEach((row, index) => {
      expect(sorted(inputPairs(JSON.parse(row.customInputs))), row.customInputs).toEqual(sorted(view.all(ids[index]!)));
    });
  });

  it("gives nothing for a value that is not an array of objects", () => {
    for (const value of [null, 3, "x", {}, [1, "a", null, [{ label: "a", value: "b" }]]]) expect(inputPairs(value)).toEqual([]);
  });
});

describe("startSqliteBulkInsert (SQLite's writer)", () => {
  /** Every derived row of a waitlist, without the ids that differ between the two lists. */
  function derived(waitlistId: string) {
    const sqlite = temp.db.$client;
    return {
      days: sqlite.prepare("SELECT verified, referral, day, count FROM signup_counts WHERE waitlist_id = ? ORDER BY 1, 2, 3").all(waitlistId),
      pairs: sqlite
        .prepare(
          `SELECT i.label, i.value, i.created_at, i.verified, i.referral, s.email FROM signup_inputs i JOIN signups s ON s.id = i.signup_id
           WHERE i.waitlist_id = ? ORDER BY 1, 2, 3, 6`,
        )
        .all(waitlistId),
      pairCounts: sqlite.prepare("SELECT label, value, verified, referral, count FROM signup_input_counts WHERE waitlist_id = ? ORDER BY 1, 2, 3, 4").all(waitlistId),
      searchable: sqlite
        .prepare("SELECT s.email FROM signup_email_search f JOIN signups s ON s.id = f.rowid WHERE signup_email_search MATCH 'jan' AND s.waitlist_id = ? ORDER BY 1")
        .all(waitlistId),
    };
  }

  const triggerNames = () => temp.db.$client.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' ORDER BY name").all();

  it("derives the same counts, pairs and search entries as the schema's insert triggers, and skips the same duplicates", async () => {
    const rows = signups(2000, 9);
    rows.push({ ...rows[5]!, email: rows[5]!.email.toUpperCase() }, rows[6]!);
    const byTriggers = (await createWaitlist({ name: "Triggers", website: "https://e.com" }, temp.db)).id;
    const inBulk = (await createWaitlist({ name: "Bulk", website: "https://e.com" }, temp.db)).id;
    const before = triggerNames();

    const insertedByTriggers = temp.db.$client.transaction(() => rows.filter((row) => insertBySql(byTriggers, row, BASE)).length)();
    const insertedInBulk = temp.db.$client.transaction(() => {
      const bulk = startSqliteBulkInsert(inBulk, temp.db);
      const count = rows.filter((row) => bulk.add(row, BASE)).length;
      bulk.finish();
      return count;
    })();

    expect(insertedByTriggers).toBe(2000);
    expect(insertedInBulk).toBe(2000);
    const bulk = derived(inBulk);
    expect(bulk.days.length).toBeGreaterThan(10);
    expect(bulk.pairs.length).toBeGreaterThan(1000);
    expect(bulk.searchable.length).toBeGreaterThan(100);
    expect(bulk).toEqual(derived(byTriggers));
    // The search index holds exactly the addresses of the signups table (FTS5 compares them itself).
    expect(() => temp.db.$client.exec("INSERT INTO signup_email_search (signup_email_search, rank) VALUES ('integrity-check', 1)")).not.toThrow();
    // The triggers are back, unchanged, and derive the next single insert as before.
    expect(triggerNames()).toEqual(before);
    insertBySql(inBulk, { email: "late@example.com", verified: true, referral: false, customInputs: '[{"label":"role","value":"Late"}]' }, BASE);
    expect(temp.db.$client.prepare("SELECT count FROM signup_input_counts WHERE waitlist_id = ? AND value = 'Late'").get(inBulk)).toEqual({ count: 1 });
  });

  it("leaves nothing behind, triggers included, when its transaction rolls back", async () => {
    const waitlistId = (await createWaitlist({ name: "Rolled back", website: "https://e.com" }, temp.db)).id;
    const before = triggerNames();
    expect(() =>
      temp.db.$client.transaction(() => {
        const bulk = startSqliteBulkInsert(waitlistId, temp.db);
        for (const row of signups(50, 3)) bulk.add(row, BASE);
        throw new Error("the import failed");
      })(),
    ).toThrow("the import failed");
    expect(triggerNames()).toEqual(before);
    for (const table of ["signups", "signup_counts", "signup_inputs", "signup_input_counts"]) {
      expect(temp.db.$client.prepare(`SELECT count(*) AS n FROM ${table} WHERE waitlist_id = ?`).get(waitlistId)).toEqual({ n: 0 });
    }
    expect(temp.db.$client.prepare("SELECT count(*) AS n FROM signup_email_search").get()).toEqual({ n: 0 });
  });

  it("needs an open transaction", async () => {
    const waitlistId = (await createWaitlist({ name: "No transaction", website: "https://e.com" }, temp.db)).id;
    expect(() => startSqliteBulkInsert(waitlistId, temp.db)).toThrow("needs an open transaction");
  });
});
