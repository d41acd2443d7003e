import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppDatabase } from "@/db/client";
import { openPostgres } from "@/db/pg/client";
import { startBulkInsert } from "@/lib/domain/signups/bulk-insert";
import { PG_ROWS_PER_STATEMENT } from "@/lib/domain/signups/bulk-insert-pg";
import { findSignupsByEmail } from "@/lib/domain/signups/find";
import type { NewSignup } from "@/lib/domain/signups/queries";
import { writeTransaction } from "@/lib/store/transaction";
import { startPostgres } from "@/tests/support/pg-server";
import { pgliteDatabase } from "@/tests/support/pglite";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

// The bulk writer on each engine: each tallies what the insert triggers would derive (SQLite's dropped
// for the transaction, PostgreSQL's idle while the writer's statements run), PostgreSQL's a batch per
// statement. The same imports must leave the same rows, ids included, in signups and in every table
// derived from them, and an insert after the writer in the same transaction derives as usual.

const DAY = 86_400_000;
const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 2, 1);

const INPUTS = [
  "[]",
  '[{"label":"company","value":"Acme"},{"label":"role","value":"Engineer"}]',
  '[{"label":"plan","value":"Pro"},{"label":"plan","value":"Pro"}]',
  '[{"label":"seats","value":5},{"label":"beta","value":true},{"label":"score","value":-12.5}]',
  '[{"company":"Globex","size":10,"nested":{"a":1},"none":null}]',
  '["loose",3,null,{"label":"Q","value":"a \\"quoted\\" é ü"}]',
  '[{"label":"ключ","value":"ünïcødé"}]',
];

/** Deterministic signups of every kind an import or the seed brings: statuses, sources, repeated addresses. */
function signups(count: number, offset: number): NewSignup[] {
  return Array.from({ length: count }, (_, n) => {
    const i = n + offset;
    const createdAt = T0 + (i % 40) * DAY + (i % 24) * HOUR + i;
    const status = i % 13 === 3 ? "invited" : i % 13 === 7 ? "completed" : i % 29 === 0 ? "rejected" : "waiting";
    const signup: NewSignup = {
      // Case differs between repeats; lower() folds ASCII only on both engines (Ü and ü are two addresses).
      email: [`User${i}@Example.com`, `user${i % 500}@example.com`, `ÜSER${i % 50}@mail.example`, `üser${i % 50}@MAIL.example`][i % 4]!,
      verified: i % 3 !== 0,
      referral: i % 5 === 0,
      customInputs: INPUTS[i % INPUTS.length]!,
      createdAt: i % 11 === 0 ? undefined : createdAt,
      status,
      statusChangedAt: status === "waiting" ? null : createdAt + (i % 4) * DAY,
      source: i % 4 === 0 ? {} : { utm_source: i % 4 === 1 ? "twitter" : undefined, utm_medium: "social", referrer: i % 4 === 3 ? "https://ref.example" : undefined },
    };
    if (i % 17 === 0) return { ...signup, invitedAt: createdAt + HOUR, completedAt: i % 34 === 0 ? createdAt + 3 * DAY : undefined };
    return signup;
  });
}

/** Two waitlists, three imports: past one statement's batch, then repeats of addresses already in, then the same addresses elsewhere. */
async function importAll(db: AppDatabase): Promise<number[]> {
  await db.run(sql`INSERT INTO waitlists (id, name, website, created_at) VALUES ('w1', 'One', 'https://one.example', 0), ('w2', 'Two', 'https://two.example', 0)`);
  const imports: [string, NewSignup[]][] = [
    ["w1", signups(PG_ROWS_PER_STATEMENT + 700, 0)],
    ["w1", signups(1500, 5000)],
    ["w2", signups(800, 0)],
  ];
  const inserted: number[] = [];
  for (const [waitlistId, rows] of imports) {
    inserted.push(
      await writeTransaction(db, async () => {
        const bulk = startBulkInsert(waitlistId, db);
        // In batches of the import's uneven sizes.
        let count = 0;
        for (let at = 0; at < rows.length; at += 777) count += await bulk.add(rows.slice(at, at + 777), T0 + 50 * DAY);
        await bulk.finish();
        // A signup written by plain SQL later in the same transaction: the insert triggers derive it again.
        await db.run(sql`INSERT INTO signups (waitlist_id, email, verified, referral, custom_inputs, created_at, status, utm_source)
          VALUES (${waitlistId}, ${`plain-${count}@example.com`}, 1, 0, '[{"label":"company","value":"Plain"},{"label":"role","value":"Engineer"}]', ${T0 + 3 * DAY}, 'completed', 'plain')`);
        return count;
      }),
    );
  }
  return inserted;
}

const TABLES: Record<string, string> = {
  signups: `SELECT id, waitlist_id, email, verified, referral, custom_inputs, created_at, status, status_changed_at, utm_source, utm_medium, utm_campaign, referrer, invited_at, completed_at, expired_at, line_at
    FROM signups ORDER BY id`,
  signup_inputs: "SELECT waitlist_id, label, value, created_at, signup_id, verified, referral FROM signup_inputs ORDER BY signup_id, label, value",
  signup_counts: "SELECT waitlist_id, verified, referral, status, day, count FROM signup_counts ORDER BY 1, 2, 3, 4, 5",
  signup_input_counts: "SELECT waitlist_id, label, value, verified, referral, count FROM signup_input_counts ORDER BY 1, 2, 3, 4, 5",
  signup_input_status_counts: "SELECT waitlist_id, label, value, status, verified, referral, count FROM signup_input_status_counts ORDER BY 1, 2, 3, 4, 5, 6",
  funnel_counts: "SELECT waitlist_id, day, stage, count FROM funnel_counts ORDER BY 1, 2, 3",
  funnel_source_counts: "SELECT waitlist_id, source, stage, day, count FROM funnel_source_counts ORDER BY 1, 2, 3, 4",
  funnel_durations: "SELECT waitlist_id, kind, bucket, day, count FROM funnel_durations ORDER BY 1, 2, 3, 4",
};

type Snapshot = Record<string, unknown[][]>;

async function snapshot(db: AppDatabase): Promise<Snapshot> {
  const tables: Snapshot = {};
  // Texts sort by their bytes on both engines (SQLite's BINARY, PostgreSQL's "C" columns).
  for (const [name, text] of Object.entries(TABLES)) tables[name] = await db.$engine.prepare(text).values([]);
  tables.search = (await findSignupsByEmail({ contains: "ser4", limit: 500 }, db)).map((found) => [found.signupId, found.email, found.waitlistId]);
  return tables;
}

let sqlite: TempDatabase;
let expected: { inserted: number[]; tables: Snapshot };

beforeAll(async () => {
  sqlite = tempDatabase();
  expected = { inserted: await importAll(sqlite.db), tables: await snapshot(sqlite.db) };
}, 60_000);
afterAll(() => sqlite.close());

it("SQLite's import skips the repeats and derives every table (the expectation the engines are held to)", () => {
  const [first, second, third] = expected.inserted;
  expect(first).toBeGreaterThan(1000);
  expect(first).toBeLessThan(PG_ROWS_PER_STATEMENT + 700);
  expect(second).toBeGreaterThan(0);
  expect(third).toBeGreaterThan(0);
  for (const [name, rows] of Object.entries(expected.tables)) expect(rows.length, name).toBeGreaterThan(0);
});

const ENGINES = [
  { engine: "PostgreSQL (PGlite)", open: async () => ({ db: await pgliteDatabase(), stop: () => Promise.resolve() }) },
  {
    engine: "PostgreSQL 15 (postgres.js)",
    open: async () => {
      process.env.SECRETS_KEY ??= "a".repeat(64);
      const server = await startPostgres();
      return { db: await openPostgres(server.url), stop: () => server.stop() };
    },
  },
];

describe.each(ENGINES)("the bulk writer on $engine", ({ open }) => {
  let db: AppDatabase;
  let stop: () => Promise<void>;
  let inserted: number[];
  beforeAll(async () => {
    ({ db, stop } = await open());
    inserted = await importAll(db);
  }, 120_000);
  afterAll(async () => {
    await db.$engine.close();
    await stop();
  });

  it("inserts and skips the same signups as SQLite's, with the same ids", () => {
    expect(inserted).toEqual(expected.inserted);
  });

  it("leaves every derived table as SQLite's, and finds the same addresses", async () => {
    const tables = await snapshot(db);
    for (const name of Object.keys(expected.tables)) expect(tables[name], name).toEqual(expected.tables[name]);
  });

  it("writes nothing when the transaction rolls back", async () => {
    const before = await snapshot(db);
    await expect(
      writeTransaction(db, async () => {
        await startBulkInsert("w2", db).add(signups(300, 90_000), T0);
        throw new Error("the import failed");
      }),
    ).rejects.toThrow("the import failed");
    expect(await snapshot(db)).toEqual(before);
  });
});
