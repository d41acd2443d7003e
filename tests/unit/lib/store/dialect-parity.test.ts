import type { PGlite } from "@electric-sql/pglite";
import { fillPlaceholders, sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { goneSignupBodySql, signupEventBodySql } from "@/lib/domain/event-snapshot";
import { eventPerSignupInsertSql } from "@/lib/domain/events";
import { SIGNUP_FIELDS } from "@/lib/domain/signups/response";
import { signupJsonSql } from "@/lib/domain/signups/queries";
import { containsPattern, containsText } from "@/lib/store/contains";
import { pgDialect, sqliteDialect, type Dialect } from "@/lib/store/dialect";
import { migratedPglite } from "@/tests/support/pglite";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

// Each fragment of lib/store/dialect.ts rendered for both engines and run on the same rows: SQLite's
// spelling on a migrated SQLite database, PostgreSQL's on PGlite with db/pg/migrations. The results
// must be equal, and the JSON texts byte for byte (clients and webhook signatures see those bytes).

let pg: PGlite;
let sqlite: TempDatabase;
const sqliteRenderer = new SQLiteSyncDialect();
const pgRenderer = new PgDialect();

/** A statement's rows (as arrays) on both engines: SQLite's first. */
async function both(statement: (d: Dialect) => SQL, values: Record<string, unknown> = {}): Promise<[unknown[][], unknown[][]]> {
  const onSqlite = sqliteRenderer.sqlToQuery(statement(sqliteDialect));
  const onPg = pgRenderer.sqlToQuery(statement(pgDialect));
  const prepared = sqlite.db.$client.prepare(onSqlite.sql);
  const sqliteParams = fillPlaceholders(onSqlite.params, values);
  const sqliteRows = prepared.reader ? (prepared.raw(true).all(...sqliteParams) as unknown[][]) : (prepared.run(...sqliteParams), []);
  const pgRows = (await pg.query<unknown[]>(onPg.sql, fillPlaceholders(onPg.params, values), { rowMode: "array" })).rows;
  return [sqliteRows, pgRows];
}

async function expectSame(statement: (d: Dialect) => SQL, values: Record<string, unknown> = {}): Promise<unknown[][]> {
  const [onSqlite, onPg] = await both(statement, values);
  // PGlite returns a bigint column as a JavaScript number or bigint, text as text: compare as SQLite's driver would give them.
  expect(onPg.map((row) => row.map((value) => (typeof value === "bigint" ? Number(value) : value)))).toEqual(onSqlite);
  return onSqlite;
}

const NASTY_TEXTS = [
  "",
  "plain@example.com",
  'quote " and backslash \\ and slash /',
  "single ' quote",
  Array.from({ length: 31 }, (_, i) => String.fromCharCode(i + 1)).join(""),
  "\u007f del, \u2028 line separator, \u2029",
  "é ü ß 中文 😀 👩‍👩‍👧",
  "\\u0041 written out",
];

const DAY = 86_400_000;
// Epoch milliseconds of every kind a created_at can hold (an import takes any ISO date up to a day ahead; JavaScript's dates run ±8.64e15).
const INSTANTS = [
  0, 1, -1, 999, -999, -1000, -1001, DAY - 1, -DAY, -DAY + 1, 1_700_000_000_123, 1_000_000_000_001,
  Date.UTC(1969, 11, 31, 23, 59, 59, 999), Date.UTC(1900, 1, 28, 12), Date.UTC(1600, 1, 29, 0, 0, 0, 7),
  Date.UTC(1, 0, 1), Date.UTC(1, 0, 1) - 1, -62_167_219_200_000, -62_167_219_200_001, -62_198_755_200_000 - 1,
  Date.UTC(-99, 5, 6, 7, 8, 9, 10), Date.UTC(-999, 0, 1), Date.UTC(-4712, 0, 1),
  -210_866_760_000_000, -210_866_760_000_001, -210_866_759_999_999, -8.64e15,
  Date.UTC(9999, 11, 31, 23, 59, 59, 999), Date.UTC(10_000, 0, 1), Date.UTC(10_000, 0, 1) - 1, 8.64e15,
  Date.UTC(2026, 1, 28, 23, 59, 59, 999), Date.UTC(2024, 1, 29, 12, 30),
];

const INPUTS = ["[]", '[{"label":"Plan","value":"Pro"}]', JSON.stringify([{ label: "é \"q\" \\ 😀", value: "\u0001\n\u001f" }, { label: "n", value: -12.5e-7 }, { x: null, y: [true, false, 1e21] }])];

beforeAll(async () => {
  sqlite = tempDatabase();
  pg = await migratedPglite();
  const waitlist = "INSERT INTO waitlists (id, name, website, created_at) VALUES ('w1', 'One', 'https://one.example', 0)";
  sqlite.db.$client.prepare(waitlist).run();
  await pg.query(waitlist);
  const insert = "INSERT INTO signups (id, waitlist_id, email, verified, referral, custom_inputs, created_at, status, status_changed_at, utm_source, utm_medium, utm_campaign, referrer) VALUES ";
  const rows = INSTANTS.map((createdAt, i) => {
    const text = NASTY_TEXTS[i % NASTY_TEXTS.length]!;
    return [i + 1, "w1", `${text}#${i}`, i % 2, (i >> 1) % 2, INPUTS[i % INPUTS.length]!, createdAt, ["waiting", "invited", "completed", "rejected"][i % 4]!, i % 3 === 0 ? null : INSTANTS[(i * 7) % INSTANTS.length]!, i % 5 === 0 ? null : text, text, i % 4 === 0 ? null : "c", NASTY_TEXTS[(i + 3) % NASTY_TEXTS.length]!] as const;
  });
  for (const row of rows) {
    sqlite.db.$client.prepare(`${insert}(${row.map(() => "?").join(", ")})`).run(...row.map((value) => (typeof value === "number" && Number.isInteger(value) ? BigInt(value) : value)));
    await pg.query(`${insert}(${row.map((_, i) => `$${i + 1}`).join(", ")})`, [...row]);
  }
});
afterAll(async () => {
  sqlite.close();
  await pg.close();
});

describe("the JSON fragments write the same bytes on both engines", () => {
  it("writes a signup's /v1 JSON, all fields, alike", async () => {
    const rows = await expectSame((d) => sql`SELECT id, ${signupJsonSql(d, SIGNUP_FIELDS)} FROM signups ORDER BY id`);
    expect(rows).toHaveLength(INSTANTS.length);
    // The texts are JSON objects with the fields in order.
    for (const [, json] of rows) expect(Object.keys(JSON.parse(json as string) as object)).toEqual([...SIGNUP_FIELDS]);
  });

  it("writes the fields in the order asked", async () => {
    await expectSame((d) => sql`SELECT ${signupJsonSql(d, ["status_changed_at", "id", "email", "verified", "custom_inputs"])} FROM signups ORDER BY id`);
  });

  it("writes ISO timestamps as toISOString does from 1970 to 9999, and as SQLite does outside", async () => {
    const rows = await expectSame((d) => sql`SELECT created_at, ${d.isoTimestamp(sql`created_at`)} FROM signups ORDER BY id`);
    for (const [ms, iso] of rows) {
      const at = new Date(ms as number);
      if (at.getUTCFullYear() >= 0 && at.getUTCFullYear() <= 9999) expect(iso).toBe(at.toISOString());
      else if ((ms as number) >= 253_402_300_800_000 || (ms as number) < -210_866_760_000_000) expect(iso).toBeNull();
    }
    expect(rows.find(([ms]) => ms === -1)?.[1]).toBe("1969-12-31T23:59:59.999Z");
  });

  it("writes days of epoch seconds alike, pre-1970 and out of range too", async () => {
    const rows = await expectSame((d) => sql`SELECT created_at, ${d.utcDateOfMs(sql`created_at`)}, ${d.utcDate(sql`(created_at / ${sql.raw(String(DAY))}) * 86400`)} FROM signups ORDER BY id`);
    expect(rows.find(([ms]) => ms === 1_700_000_000_123)?.slice(1)).toEqual(["2023-11-14", "2023-11-14"]);
  });

  it("writes event bodies of present and gone signups alike", async () => {
    const values = (from: string | null, milestone: string | null) => ({ type: "signup.status_changed", timestamp: "2026-01-01T00:00:00.000Z", waitlistId: "w1", from, milestone });
    for (const extra of [values(null, null), values("waiting", null), values(null, JSON.stringify({ referrals: 3, label: "Thé \"top\" 😀" })), values('x"\\\u0001', null)]) {
      await expectSame((d) => sql`SELECT ids.id, ${signupEventBodySql(d, sql`ids.id`)} FROM (SELECT id FROM signups UNION ALL SELECT 100000) AS ids LEFT JOIN signups ON signups.id = ids.id ORDER BY ids.id`, extra);
    }
    // The statement that appends a bulk action's events, as events.ts writes it: the same bodies land in `events`.
    await both(eventPerSignupInsertSql, { type: "signup.invited", waitlistId: "w1", ids: JSON.stringify([2, 1, 3, 99_999]), at: 5, timestamp: "1970-01-01T00:00:00.005Z", payload: "{}", from: "waiting", milestone: null });
    const bodies = await expectSame(() => sql`SELECT signup_id, created_at, payload, body FROM events WHERE type = 'signup.invited' ORDER BY signup_id`);
    expect(bodies).toHaveLength(4);
    await expectSame((d) => sql`SELECT ${goneSignupBodySql(d, sql`${"signup.erased"}`, sql`${"2026-01-01T00:00:00.000Z"}`, sql`waitlist_id`, sql`id`)} FROM signups ORDER BY id`);
  });
});

describe("the other fragments give the same results on both engines", () => {
  it("escapes texts as JSON strings alike", async () => {
    for (const text of [...NASTY_TEXTS, null]) await expectSame((d) => sql`SELECT ${d.jsonObject([["v", d.jsonString(d.typed(sql`${text}`, "text"))], ["w", d.jsonString(sql`'x'`)]])}`);
  });

  it("aggregates texts into a JSON array alike (in an order of the engine's)", async () => {
    const [onSqlite, onPg] = await both((d) => sql`SELECT status, ${d.jsonGroupArray(sql`email`)} FROM signups GROUP BY status ORDER BY status`);
    const asSets = (rows: unknown[][]) => rows.map(([status, json]) => [status, (JSON.parse(json as string) as string[]).sort()]);
    expect(asSets(onPg)).toEqual(asSets(onSqlite));
    // One element, and none: byte for byte.
    await expectSame((d) => sql`SELECT ${d.jsonGroupArray(sql`email`)} FROM signups WHERE id IN (5, 6) GROUP BY id ORDER BY id`);
    await expectSame((d) => sql`SELECT ${d.jsonGroupArray(sql`email`)} FROM signups WHERE id < 0`);
  });

  it("reads JSON fields and items alike", async () => {
    await expectSame((d) => sql`SELECT ${d.jsonField(sql`${signupJsonSql(d, SIGNUP_FIELDS)}`, "email")}, ${d.jsonField(sql`${signupJsonSql(d, SIGNUP_FIELDS)}`, "status_changed_at")} FROM signups ORDER BY id`);
    await expectSame((d) => sql`SELECT ${d.jsonItem(sql`r.value`, 0, "bigint")}, ${d.jsonItem(sql`r.value`, 1)} FROM ${d.jsonRows(sql`${JSON.stringify([[1, "a\"é"], [22, null], [3, "x"]])}`, "r", "json")}`);
  });

  it("reads JSON array parameters as rows, in order, and as IN lists", async () => {
    const ids = JSON.stringify([5, 3, 9, 3, 1000]);
    await expectSame((d) => sql`SELECT signups.id, listed.key FROM ${d.jsonRowsInOrder(sql`${ids}`, "listed", "integer")} JOIN signups ON signups.id = listed.value ORDER BY listed.key`);
    await expectSame((d) => sql`SELECT id FROM signups WHERE id ${d.inJson(sql`${ids}`, "integer")} ORDER BY id`);
    await expectSame((d) => sql`SELECT id FROM signups WHERE status ${d.inJson(sql`${JSON.stringify(["invited", "rejected"])}`)} ORDER BY id`);
    await expectSame((d) => sql`SELECT listed.value FROM ${d.jsonRows(sql`${JSON.stringify(["b", "é", 'q"'])}`, "listed")} ORDER BY 1`);
  });

  it("spells hints as nothing on PostgreSQL", async () => {
    await expectSame((d) => sql`SELECT id FROM signups ${d.indexedBy("signups_waitlist_order_idx")} WHERE ${d.notIndexed(sql`status`)} = 'waiting' AND (created_at, id) > (0, ${d.seekable(sql`cast(${3} AS bigint)`)}) ORDER BY id`);
    await expectSame((d) => sql`SELECT ${d.isoTimestampOrNull(sql`status_changed_at`)} FROM signups ORDER BY id`);
  });
});

describe("search and LIKE give the same rows on both engines", () => {
  // Addresses that differ in ASCII case, in non-ASCII case (which neither engine folds), and with LIKE's own characters.
  const ADDRESSES = ["Alice@Example.com", "alice@example.COM", "ÉLODIE@example.com", "élodie@example.com", "a_b%c\\d@x.io", "aXb%c\\d@x.io", "zoë@straße.de", "ZOË@STRASSE.DE"];
  const TERMS = ["alice", "EXAMPLE", "élodie", "ÉLO", "lodie", "_b%", "b%c\\", "%", "_", "c\\d", "straße", "ë@", "Ë@", "nobody"];

  beforeAll(async () => {
    // Each in a waitlist of its own: an address is unique in a waitlist in any ASCII case.
    const insert = "INSERT INTO signups (id, waitlist_id, email, created_at) VALUES ";
    for (const [i, email] of ADDRESSES.entries()) {
      const waitlist = `INSERT INTO waitlists (id, name, website, created_at) VALUES ('s${i}', 'S', 'https://s.example', 0)`;
      sqlite.db.$client.prepare(waitlist).run();
      await pg.query(waitlist);
      sqlite.db.$client.prepare(`${insert}(?, 's${i}', ?, ?)`).run(BigInt(1000 + i), email, BigInt(i));
      await pg.query(`${insert}($1, 's${i}', $2, $3)`, [1000 + i, email, i]);
    }
  });

  it("matches a contained text in any ASCII case, literally", async () => {
    for (const term of TERMS) {
      const rows = await expectSame((d) => sql`SELECT id FROM signups WHERE id >= 1000 AND ${containsText(d, sql`email`, "contains")} ORDER BY id`, { contains: containsPattern(term) });
      const expected = ADDRESSES.flatMap((email, i) => (email.replace(/[A-Z]/g, (c) => c.toLowerCase()).includes(term.replace(/[A-Z]/g, (c) => c.toLowerCase())) ? [1000 + i] : []));
      expect(rows.map(([id]) => id), term).toEqual(expected);
    }
  });

  it("finds the search index's candidates alike, joined and as a condition", async () => {
    for (const term of TERMS) {
      const values = { trigrams: `%${term}%`, contains: containsPattern(term) };
      await expectSame(
        (d) => sql`SELECT signups.id FROM ${d.emailSearchFrom(sql.raw("signups"), sql.raw("signups.id"))} WHERE ${d.emailSearchMatch(sql.raw("signups.email"), sql.placeholder("trigrams"))} AND signups.id >= 1000 AND ${containsText(d, sql.raw("signups.email"), "contains")} ORDER BY 1`,
        values,
      );
      await expectSame(
        (d) => sql`SELECT signups.id FROM ${d.emailSearchFrom(sql.raw("signups"), sql.raw("signups.id"), "lower")} WHERE ${d.emailSearchMatch(sql.raw("signups.email"), sql.placeholder("trigrams"), "lower")} AND signups.id >= 1000 ORDER BY 1`,
        values,
      );
      await expectSame((d) => sql`SELECT id FROM signups WHERE id >= 1000 AND ${d.emailSearchHas(sql`id`, sql`email`, sql.placeholder("trigrams"))} ORDER BY 1`, values);
    }
  });
});

describe("writes and aggregates give the same rows on both engines", () => {
  it("replaces a row by its primary key, and finds a text in a text", async () => {
    const store = (hash: string, body: string, at: number) => (d: Dialect) =>
      d.insertOrReplace("idempotent_requests", ["api_key_id", "key", "request_hash", "status", "body", "created_at"], ["api_key_id", "key"], sql`${"k1"}, ${"idem"}, ${hash}, ${201}, ${body}, ${at}`);
    for (const [hash, body, at] of [["h1", '{"email":"Ann@X.io"}', 1], ["h2", '{"email":"bob@x.io"}', 2]] as const) {
      await both(store(hash, body, at));
      await both(() => sql`INSERT INTO idempotent_requests (api_key_id, key, request_hash, status, body, created_at) VALUES (${"k2"}, ${hash}, ${hash}, 200, ${body.toUpperCase()}, ${at})`);
    }
    await expectSame(() => sql`SELECT api_key_id, key, request_hash, status, body, created_at FROM idempotent_requests ORDER BY 1, 2`);
    for (const part of ['"bob@x.io"', '"ann@x.io"', "é", '"email"']) await expectSame((d) => sql`SELECT key FROM idempotent_requests WHERE ${d.holds(sql`lower(body)`, sql`${part}`)} ORDER BY 1`);
  });

  // The upserts of lib/domain/funnel/page-views.ts and lib/domain/limits/counter.ts, as they are written: PostgreSQL wants
  // a conflict target, and the table's own columns qualified where `excluded` is in scope too.
  it("adds to a counting row on conflict with its key", async () => {
    const upsert = sql`INSERT INTO join_page_views (waitlist_id, day, count) VALUES (${"w1"}, ${7}, ${3}) ON CONFLICT (waitlist_id, day) DO UPDATE SET count = join_page_views.count + excluded.count`;
    for (let i = 0; i < 2; i++) await both(() => upsert);
    expect(await expectSame(() => sql`SELECT waitlist_id, day, count FROM join_page_views`)).toEqual([["w1", 7, 6]]);
    const hit = (now: number) => sql`INSERT INTO rate_limits (key, window_end, count) VALUES (${"k"}, ${now + 10}, 1)
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN rate_limits.window_end <= ${now} THEN 1 ELSE rate_limits.count + 1 END,
         window_end = CASE WHEN rate_limits.window_end <= ${now} THEN ${now + 10} ELSE rate_limits.window_end END
       RETURNING count, window_end AS windowEnd`;
    const hits = [];
    for (const now of [100, 105, 109, 110, 111]) hits.push(...(await expectSame(() => hit(now))));
    expect(hits).toEqual([[1, 110], [2, 110], [3, 110], [1, 120], [2, 120]]);
  });

  it("names a subquery in FROM on PostgreSQL only (before 16 it must have a name)", async () => {
    expect(new PgDialect().sqlToQuery(sql`SELECT count(*) FROM (SELECT 1)${pgDialect.subqueryName("one")}`).sql).toBe("SELECT count(*) FROM (SELECT 1) AS one");
    await expectSame((d) => sql`SELECT count(*) FROM (SELECT id FROM signups WHERE id < 1000)${d.subqueryName("listed")}`);
  });

  it("joins in a fixed order on SQLite, as an inner join on PostgreSQL", async () => {
    await expectSame((d) => sql`SELECT signups.id, waitlists.name FROM signups ${d.crossJoin()} waitlists ON waitlists.id = signups.waitlist_id WHERE signups.id < 1000 ORDER BY 1`);
    await expectSame((d) => sql`select signups.id from waitlists ${d.crossJoin("lower")} signups on signups.waitlist_id = waitlists.id where signups.id < 1000 order by 1`);
  });

  it("counts the rows a condition holds for", async () => {
    await expectSame((d) => sql`SELECT status, count(*), ${d.countTrue(sql`verified = 1`)} FROM signups WHERE id < 1000 GROUP BY status ORDER BY status`);
    await expectSame((d) => sql`SELECT ${d.countTrue(sql`verified = 1`)} FROM signups WHERE id < 0`);
  });
});

