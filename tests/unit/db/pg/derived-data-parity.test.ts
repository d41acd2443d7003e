import type { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inputPairs } from "@/lib/domain/signups/input-pairs";
import { recountFunnel, type RecountRow } from "@/tests/support/funnel-recount";
import { migratedPglite } from "@/tests/support/pglite";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

// One script of writes, as plain SQL both engines take, run on a migrated SQLite database and on
// PostgreSQL with db/pg/migrations: the tables the triggers keep must end equal row for row, and
// equal to a recount from the signups where one exists.

const DAY = 86_400_000;
const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 5);

const INPUTS = [
  "[]",
  '[{"label":"Plan","value":"Pro"}]',
  '[{"label":"Plan","value":"Team"},{"label":"Seats","value":5}]',
  '[{"label":"Beta","value":true},{"label":"Score","value":1.5},{"label":"Off","value":false}]',
  '[{"company":"Acme","size":10,"nested":{"a":1},"none":null,"list":[1]}]',
  '[{"label":"Plan","value":null,"color":"red"}]',
  '[{"label":"Plan","value":"Pro"},{"label":"Plan","value":"Pro"}]',
  '["loose",3,null,{"label":"Q","value":"a \\"quoted\\" \\u00e9 ü"}]',
  '[{"label":7,"value":"x","other":"y"}]',
];
// Number texts JSON.stringify would not write: the engines must agree, the JS derivation does not apply.
const ODD_INPUTS = '[{"label":"Big","value":1.0e3},{"label":"Neg","value":-0},{"label":"Exp","value":2E-2}]';

const quote = (text: string | null) => (text === null ? "NULL" : `'${text.replaceAll("'", "''")}'`);

function signupValues(i: number, waitlist: string): string {
  const created = T0 + (i % 6) * DAY + ((i * 7) % 24) * HOUR + i;
  const utm = [null, "twitter", "news", null][i % 4]!;
  const referrer = [null, "https://a.example", "twitter"][i % 3]!;
  const inputs = i === 13 ? ODD_INPUTS : INPUTS[i % INPUTS.length]!;
  // A few arrive invited or completed, as an import may bring them.
  const status = i % 17 === 5 ? "invited" : i % 17 === 9 ? "completed" : "waiting";
  const invited = status === "waiting" ? null : created + (i % 3) * DAY + HOUR;
  const completed = status === "completed" ? invited! + 5 * HOUR : null;
  const email = `${i % 2 === 0 ? "User" : "user"}${i}@${i % 3 === 0 ? "Example.COM" : "mail.example"}`;
  return `(${quote(waitlist)}, ${quote(email)}, ${i % 2}, ${Number(i % 5 === 0)}, ${quote(inputs)}, ${created}, '${status}', ${invited ?? "NULL"}, ${quote(utm)}, ${quote(referrer)}, ${invited ?? "NULL"}, ${completed ?? "NULL"})`;
}

const INSERT = "INSERT INTO signups (waitlist_id, email, verified, referral, custom_inputs, created_at, status, status_changed_at, utm_source, referrer, invited_at, completed_at) VALUES ";
const waitlistOf = (i: number) => ["w1", "w2", "w3"][i % 3]!;
const at = (days: number) => T0 + days * DAY;

const SCRIPT: string[] = [
  `INSERT INTO waitlists (id, name, website, created_at) VALUES ('w1', 'One', 'https://one.example', ${T0}), ('w2', 'Two', 'https://two.example', ${T0}), ('w3', 'Three', 'https://three.example', ${T0})`,
  // 60 in one statement, 20 one by one.
  INSERT + Array.from({ length: 60 }, (_, i) => signupValues(i + 1, waitlistOf(i + 1))).join(", "),
  ...Array.from({ length: 20 }, (_, i) => INSERT + signupValues(i + 61, waitlistOf(i + 61))),
  // Referral codes and referrals.
  "UPDATE signups SET referral_code = 'code' || id WHERE id % 4 = 1",
  "UPDATE signups SET referred_by = id - 1 WHERE id % 4 = 2 AND id > 1",
  "INSERT INTO referrals (signup_id, referrer_id, waitlist_id, state, counted_at) SELECT id, referred_by, waitlist_id, 'counted', created_at FROM signups WHERE referred_by IS NOT NULL",
  // Milestones reached, then one deleted.
  "INSERT INTO milestones (waitlist_id, referrals, label) VALUES ('w1', 1, 'First'), ('w1', 3, 'Third'), ('w2', 1, 'First')",
  `INSERT INTO signup_milestones (signup_id, waitlist_id, referrals, reached_at) SELECT referred_by, waitlist_id, 1, ${at(8)} FROM signups WHERE referred_by IS NOT NULL AND waitlist_id IN ('w1', 'w2')`,
  `INSERT INTO signup_milestones (signup_id, waitlist_id, referrals, reached_at) SELECT referred_by, waitlist_id, 3, ${at(9)} FROM signups WHERE referred_by IS NOT NULL AND waitlist_id = 'w1'`,
  "DELETE FROM milestones WHERE waitlist_id = 'w1' AND referrals = 1",
  // Many invited in one statement; then completed, rejected, and the rejected back in line, moved.
  `UPDATE signups SET status = 'invited', status_changed_at = ${at(7)}, invited_at = coalesce(invited_at, ${at(7)}) WHERE status = 'waiting' AND id % 3 = 0`,
  `UPDATE signups SET status = 'completed', status_changed_at = ${at(7) + 30 * HOUR}, completed_at = ${at(7) + 30 * HOUR} WHERE status = 'invited' AND id % 2 = 0`,
  `UPDATE signups SET status = 'rejected', status_changed_at = ${at(8)} WHERE status = 'invited' AND id % 5 IN (1, 3)`,
  `UPDATE signups SET status = 'waiting', status_changed_at = ${at(9)}, line_at = ${at(-2)}, line_pos = 0.5 WHERE status = 'rejected' AND id % 4 = 1`,
  // Line moves of waiting signups, moved again, and some moved ones invited (they leave the count).
  `UPDATE signups SET line_at = created_at - ${DAY}, line_pos = 1.25 WHERE status = 'waiting' AND id % 5 = 1`,
  `UPDATE signups SET line_at = line_at - ${2 * DAY}, line_pos = line_pos + 1 WHERE line_at IS NOT NULL AND id % 2 = 0`,
  `UPDATE signups SET status = 'invited', status_changed_at = ${at(10)}, invited_at = coalesce(invited_at, ${at(10)}) WHERE line_at IS NOT NULL AND status = 'waiting' AND id % 3 = 1`,
  // The status set to itself on moved signups: they leave and enter again.
  "UPDATE signups SET status = status WHERE line_at IS NOT NULL",
  // Invitations expire: the first expiry of each sets expired_at; a second, and events of other types or of no signup, do not.
  `INSERT INTO events (type, waitlist_id, signup_id, created_at, payload) SELECT 'signup.invitation_expired', waitlist_id, id, ${at(11)}, '{}' FROM signups WHERE status = 'invited' AND id % 4 IN (0, 1)`,
  `INSERT INTO events (type, waitlist_id, signup_id, created_at, payload) SELECT 'signup.invitation_expired', waitlist_id, id, ${at(12)}, '{}' FROM signups WHERE status = 'invited' AND id % 4 = 0`,
  `INSERT INTO events (type, waitlist_id, signup_id, created_at, payload) VALUES ('signup.invitation_expired', 'w1', NULL, ${at(11)}, '{}'), ('signup.invited', 'w1', 2, ${at(11)}, '{"a":1}')`,
  `UPDATE signups SET status = 'waiting', status_changed_at = ${at(12)}, line_at = ${at(-5)}, line_pos = 0.25 WHERE expired_at IS NOT NULL AND id % 2 = 0`,
  // Changes of address, inputs and flags.
  "UPDATE signups SET email = upper(email) WHERE id % 7 = 0",
  `UPDATE signups SET custom_inputs = '[{"label":"Plan","value":"Enterprise"},{"label":"Seats","value":50}]' WHERE id % 8 = 3`,
  "UPDATE signups SET custom_inputs = custom_inputs, verified = 1 - verified WHERE id % 6 = 0",
  "UPDATE signups SET referral = 1 WHERE id % 9 = 4",
  // IS comparisons, NULL against a value: the source from nothing to something (the stages move),
  `UPDATE signups SET utm_source = 'launch' WHERE utm_source IS NULL AND referrer IS NULL AND id % 2 = 1`,
  // a source that leaves coalesce(utm_source, referrer) as it was (only the times move),
  `UPDATE signups SET utm_source = referrer, invited_at = invited_at WHERE utm_source IS NULL AND referrer IS NOT NULL AND id % 5 = 2`,
  // times from a value to NULL, from NULL to a value, and to another value (another bucket),
  "UPDATE signups SET invited_at = NULL WHERE status = 'completed' AND id % 3 = 0",
  "UPDATE signups SET completed_at = NULL WHERE status = 'completed' AND id % 4 = 1",
  `UPDATE signups SET expired_at = NULL WHERE expired_at IS NOT NULL AND id % 3 = 2`,
  `UPDATE signups SET invited_at = created_at + ${3 * HOUR} WHERE invited_at IS NULL AND status = 'waiting' AND id % 10 = 7`,
  `UPDATE signups SET invited_at = invited_at + ${4 * DAY}, verified = verified WHERE invited_at IS NOT NULL AND id % 4 = 3`,
  `UPDATE signups SET referrer = NULL, utm_source = NULL WHERE id % 13 = 6`,
  // The day a signup joined, and its waitlist (signups never moved in line, whose counts follow neither).
  `UPDATE signups SET created_at = created_at - ${3 * DAY} WHERE line_at IS NULL AND id % 10 = 4`,
  "UPDATE signups SET waitlist_id = 'w2' WHERE waitlist_id = 'w1' AND line_at IS NULL AND id % 10 = 8",
  // Erasures (one referrer's: referred_by becomes NULL), a whole waitlist, and joins after them.
  "DELETE FROM signups WHERE id % 11 = 0",
  "DELETE FROM signups WHERE id IN (SELECT referred_by FROM signups WHERE referred_by IS NOT NULL ORDER BY id LIMIT 2)",
  "DELETE FROM waitlists WHERE id = 'w3'",
  ...Array.from({ length: 6 }, (_, i) => INSERT + signupValues(i + 81, i % 2 === 0 ? "w1" : "w2")),
  // Addresses that differ only in the case of a letter outside ASCII are two addresses on both (lower() folds ASCII only).
  `INSERT INTO signups (waitlist_id, email, created_at) VALUES ('w1', 'ÉLODIE@Accent.example', ${at(3)}), ('w1', 'élodie@accent.example', ${at(3)})`,
];

const DERIVED: Record<string, string> = {
  signup_counts: "SELECT waitlist_id, verified, referral, status, day, count FROM signup_counts ORDER BY 1, 2, 3, 4, 5",
  signup_inputs: "SELECT waitlist_id, label, value, created_at, signup_id, verified, referral FROM signup_inputs ORDER BY 1, 2, 3, 4, 5",
  signup_input_counts: "SELECT waitlist_id, label, value, verified, referral, count FROM signup_input_counts ORDER BY 1, 2, 3, 4, 5",
  signup_input_status_counts: "SELECT waitlist_id, label, value, status, verified, referral, count FROM signup_input_status_counts ORDER BY 1, 2, 3, 4, 5, 6",
  moved_signup_counts: "SELECT waitlist_id, day, by_line, by_created FROM moved_signup_counts ORDER BY 1, 2",
  funnel_counts: "SELECT waitlist_id, day, stage, count FROM funnel_counts ORDER BY 1, 2, 3",
  funnel_source_counts: "SELECT waitlist_id, source, stage, day, count FROM funnel_source_counts ORDER BY 1, 2, 3, 4",
  funnel_durations: "SELECT waitlist_id, kind, bucket, day, count FROM funnel_durations ORDER BY 1, 2, 3, 4",
  signup_milestones: "SELECT signup_id, waitlist_id, referrals, reached_at FROM signup_milestones ORDER BY 1, 2",
  signups: "SELECT id, waitlist_id, email, status, created_at, invited_at, completed_at, expired_at, line_at, referred_by FROM signups ORDER BY id",
};

type Row = Record<string, unknown>;
const plain = (rows: Row[]) => rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, typeof value === "bigint" ? Number(value) : value])));

let pg: PGlite;
let sqlite: TempDatabase;
const fromSqlite = (sql: string) => plain(sqlite.db.$client.prepare(sql).all() as Row[]);
const fromPg = async (sql: string) => plain((await pg.query<Row>(sql)).rows);

beforeAll(async () => {
  sqlite = tempDatabase();
  pg = await migratedPglite();
  for (const statement of SCRIPT) {
    try {
      sqlite.db.$client.exec(statement);
      await pg.exec(statement);
    } catch (error) {
      throw new Error(`${statement.slice(0, 200)}: ${String(error)}`);
    }
  }
});
afterAll(async () => {
  sqlite.close();
  await pg.close();
});

describe("the triggers keep the same derived data on PostgreSQL as on SQLite", () => {
  it.each(Object.keys(DERIVED))("%s is equal row for row", async (table) => {
    const rows = fromSqlite(DERIVED[table]!);
    expect(rows.length).toBeGreaterThan(3);
    expect(await fromPg(DERIVED[table]!)).toEqual(rows);
  });

  it("the script reached what it tests", () => {
    const [counts] = fromSqlite(
      "SELECT count(*) AS signups, sum(status = 'invited') AS invited, sum(status = 'completed') AS completed, sum(status = 'rejected') AS rejected, sum(line_at IS NOT NULL AND status = 'waiting') AS moved, sum(expired_at IS NOT NULL) AS expired, sum(completed_at IS NOT NULL AND invited_at IS NULL) AS completed_without_invitation FROM signups",
    );
    for (const [name, value] of Object.entries(counts!)) expect(value, name).toBeGreaterThan(0);
    expect(fromSqlite("SELECT count(*) AS n FROM signup_milestones WHERE waitlist_id = 'w1' AND referrals = 1")).toEqual([{ n: 0 }]);
    expect(fromSqlite("SELECT count(*) AS n FROM signup_inputs WHERE waitlist_id = 'w3'")).toEqual([{ n: 0 }]);
  });
});

interface SignupRow {
  id: number;
  waitlist_id: string;
  verified: number;
  referral: number;
  status: string;
  created_at: number;
  custom_inputs: string;
  line_at: number | null;
  utm_source: string | null;
  referrer: string | null;
  invited_at: number | null;
  completed_at: number | null;
  expired_at: number | null;
}

/** Counts by a key, as sorted [key, count] pairs. */
function tally<T>(items: T[], key: (item: T) => unknown[], weight: (item: T) => number = () => 1): [string, number][] {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(JSON.stringify(key(item)), (counts.get(JSON.stringify(key(item))) ?? 0) + weight(item));
  return [...counts].filter(([, count]) => count !== 0).sort(([a], [b]) => (a < b ? -1 : 1));
}

describe("and equal to a recount from the signups", () => {
  const signups = () => fromSqlite("SELECT * FROM signups") as unknown as SignupRow[];
  const day = (ms: number) => Math.trunc(ms / DAY);

  it("signup_counts", () => {
    expect(tally(fromSqlite(DERIVED.signup_counts!), (row) => [row.waitlist_id, row.verified, row.referral, row.status, row.day], (row) => row.count as number)).toEqual(
      tally(signups(), (row) => [row.waitlist_id, row.verified, row.referral, row.status, day(row.created_at)]),
    );
  });

  it("signup_inputs and their counts, by JavaScript's derivation of the pairs", () => {
    const canonical = signups().filter((row) => JSON.stringify(JSON.parse(row.custom_inputs)) === row.custom_inputs);
    const ids = new Set(canonical.map((row) => row.id));
    const expected = canonical.flatMap((row) => inputPairs(JSON.parse(row.custom_inputs)).map((pair) => ({ ...row, ...pair })));
    const inputs = fromSqlite(DERIVED.signup_inputs!).filter((row) => ids.has(row.signup_id as number));
    const key = (row: Row) => [row.waitlist_id, row.label, row.value, row.created_at, row.id ?? row.signup_id, row.verified, row.referral];
    expect(tally(inputs, key)).toEqual(tally(expected, key));
    const allInputs = fromSqlite("SELECT i.*, s.status FROM signup_inputs i JOIN signups s ON s.id = i.signup_id");
    expect(tally(fromSqlite(DERIVED.signup_input_counts!), (row) => [row.waitlist_id, row.label, row.value, row.verified, row.referral], (row) => row.count as number)).toEqual(
      tally(allInputs, (row) => [row.waitlist_id, row.label, row.value, row.verified, row.referral]),
    );
    expect(tally(fromSqlite(DERIVED.signup_input_status_counts!), (row) => [row.waitlist_id, row.label, row.value, row.status, row.verified, row.referral], (row) => row.count as number)).toEqual(
      tally(allInputs.filter((row) => row.status !== "waiting"), (row) => [row.waitlist_id, row.label, row.value, row.status, row.verified, row.referral]),
    );
  });

  it("moved_signup_counts (its rows at 0 stay)", () => {
    const moved = signups().filter((row) => row.line_at !== null && row.status === "waiting");
    const counted = fromSqlite(DERIVED.moved_signup_counts!);
    expect(tally(counted, (row) => [row.waitlist_id, row.day], (row) => row.by_line as number)).toEqual(tally(moved, (row) => [row.waitlist_id, day(row.line_at!)]));
    expect(tally(counted, (row) => [row.waitlist_id, row.day], (row) => row.by_created as number)).toEqual(tally(moved, (row) => [row.waitlist_id, day(row.created_at)]));
  });

  it("the funnel, by recountFunnel, and its durations", () => {
    const rows = signups();
    for (const waitlist of ["w1", "w2"]) {
      const mine = rows.filter((row) => row.waitlist_id === waitlist);
      const recount = recountFunnel(
        mine.map((row): RecountRow => ({
          createdAt: row.created_at,
          verified: row.verified === 1,
          referral: row.referral === 1,
          source: row.utm_source ?? row.referrer,
          invitedAt: row.invited_at,
          completedAt: row.completed_at,
          expiredAt: row.expired_at,
        })),
      );
      const stages = ["joined", "referred", "verified", "invited", "completed", "expired"] as const;
      const counted = fromSqlite(`SELECT day, stage, count FROM funnel_counts WHERE waitlist_id = '${waitlist}'`);
      const days = recount.days.map(({ day: text, ...each }) => ({ day: text, ...Object.fromEntries(stages.map((stage) => [stage, each[stage]])) }));
      const fromTable = [...new Set(counted.map((row) => row.day as number))].sort((a, b) => a - b).map((number) => ({
        day: new Date(number * DAY).toISOString().slice(0, 10),
        ...Object.fromEntries(stages.map((stage) => [stage, (counted.find((row) => row.day === number && row.stage === stage)?.count as number | undefined) ?? 0])),
      }));
      expect(fromTable).toEqual(days);
      const bySource = fromSqlite(`SELECT source, stage, sum(count) AS count FROM funnel_source_counts WHERE waitlist_id = '${waitlist}' GROUP BY source, stage`);
      const sources = Object.fromEntries([...new Set(bySource.map((row) => row.source as string))].map((source) => [
        source === "" ? "(none)" : source,
        Object.fromEntries(stages.map((stage) => [stage, (bySource.find((row) => row.source === source && row.stage === stage)?.count as number | undefined) ?? 0])),
      ]));
      expect(sources).toEqual(recount.sources);
    }
    const bucket = (ms: number) => (Math.max(ms, 0) < 2 * DAY ? Math.trunc(Math.max(ms, 0) / HOUR) : Math.trunc(Math.max(ms, 0) / DAY) * 24);
    const invited = rows.filter((row) => row.invited_at !== null);
    const expected = [
      ...invited.map((row) => [row.waitlist_id, "invite", bucket(row.invited_at! - row.created_at), day(row.created_at)]),
      ...invited.filter((row) => row.completed_at !== null).map((row) => [row.waitlist_id, "redeem", bucket(row.completed_at! - row.invited_at!), day(row.created_at)]),
    ];
    expect(tally(fromSqlite(DERIVED.funnel_durations!), (row) => [row.waitlist_id, row.kind, row.bucket, row.day], (row) => row.count as number)).toEqual(tally(expected, (each) => each));
  });

  it("signups.expired_at: the time of the first expiry event, unless cleared since", () => {
    const first = new Map((fromSqlite("SELECT signup_id, min(created_at) AS at FROM events WHERE type = 'signup.invitation_expired' AND signup_id IS NOT NULL GROUP BY signup_id") as { signup_id: number; at: number }[]).map((row) => [row.signup_id, row.at]));
    const expired = signups().filter((row) => row.expired_at !== null);
    expect(expired.length).toBeGreaterThan(3);
    for (const row of expired) expect(row.expired_at).toBe(first.get(row.id));
  });
});

describe("search by part of an address", () => {
  const likePattern = (term: string) => quote(`%${term.replaceAll("\\", "\\\\").replaceAll("%", "\\%").replaceAll("_", "\\_")}%`);
  const sqliteFinds = (term: string) => fromSqlite(`SELECT id FROM signups WHERE email LIKE ${likePattern(term)} ESCAPE '\\' ORDER BY id`);

  it("ILIKE on PostgreSQL finds the signups LIKE finds on SQLite, through the trigram index", async () => {
    for (const term of ["example.com", "USER1", "mail.EX", "r3@", "ACCENT", "élodie", "ÉLODIE"]) {
      const expected = sqliteFinds(term);
      expect(expected.length, term).toBeGreaterThan(0);
      expect(await fromPg(`SELECT id FROM signups WHERE email ILIKE ${likePattern(term)} ESCAPE '\\' ORDER BY id`), term).toEqual(expected);
    }
    await pg.exec("SET enable_seqscan = off");
    const plan = await fromPg("EXPLAIN SELECT id FROM signups WHERE email ILIKE '%example.com%'");
    await pg.exec("RESET enable_seqscan");
    expect(JSON.stringify(plan)).toContain("signups_email_trgm_idx");
  });

  it("folds the case of ASCII letters only, as SQLite's LIKE: the column's C collation decides, not the pattern's", async () => {
    expect(sqliteFinds("élodie")).toHaveLength(1);
    expect(await fromPg(`SELECT id FROM signups WHERE email ILIKE ${likePattern("élodie")} ORDER BY id`)).toEqual(sqliteFinds("élodie"));
    // Under the database's own collation the same pattern finds both.
    expect(await fromPg(`SELECT id FROM signups WHERE email COLLATE "default" ILIKE ${likePattern("élodie")}`)).toHaveLength(2);
  });
});
