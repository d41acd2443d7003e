import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { AppDatabase } from "@/db/client";

/** What the elements of a JSON array parameter are, for the engine that types them (PostgreSQL); SQLite reads every kind alike. */
export type JsonElements = "text" | "integer" | "json";

/** The case of a fragment's keywords, as the statement around it writes them. */
export type Keywords = "upper" | "lower";

/** A type PostgreSQL must be told where it cannot infer one (an untyped parameter); SQLite takes the value bare. */
export type ValueType = "text" | "bigint" | "integer";

/**
 * What the engines spell differently, in one place per engine: the domain writes its SQL once with
 * these fragments, and `preparedSql` hands each statement the dialect of its connection. SQLite's
 * spellings are the ones the domain always had (its statements' text must not change); PostgreSQL's
 * must give the same results, and the JSON members the same bytes
 * (tests/unit/lib/store/dialect-parity.test.ts), so a fragment's comment says what it must mean on both.
 */
export interface Dialect {
  /** The elements of a JSON array (a parameter holding `JSON.stringify([…])`), as rows of one column `value`: a FROM item. */
  jsonRows(array: SQLWrapper, alias: string, elements?: JsonElements): SQL;
  /** `IN (…)` over the elements of a JSON array parameter. */
  inJson(array: SQLWrapper, elements?: JsonElements): SQL;
  /** After a table name: the index a statement must use, where the engine's planner would otherwise pick a worse one. */
  indexedBy(index: string): SQL;
  /** A column kept out of the index choice (a condition checked on the rows an index found, not used to find them). */
  notIndexed(column: SQLWrapper): SQL;
  /** An integer compared inside a row value, written so that the engine seeks on it (lib/store/keyset.ts says why SQLite needs it). */
  seekable(value: SQLWrapper): SQL;
  /** jsonRows with a second column `key`, each element's index in the array from 0: a FROM item whose rows can be ordered as the array is. */
  jsonRowsInOrder(array: SQLWrapper, alias: string, elements?: JsonElements): SQL;

  /** A value of a type the engine must be told (PostgreSQL cannot type a parameter compared only with NULL or fed to a polymorphic function). */
  typed(value: SQLWrapper, type: ValueType): SQL;
  /** A value as a 64-bit integer (a text or real read from JSON, say). */
  integerOf(value: SQLWrapper): SQL;
  /**
   * A JSON object's text, keys in this order, no spaces, as SQLite's json_object writes it. Each value
   * is a JSON value of the members below (jsonString, jsonBoolean, jsonEmbedded) or another jsonObject; SQL NULL is `null`.
   */
  jsonObject(entries: readonly (readonly [key: string, value: SQL])[]): SQL;
  /** A text value (or NULL) as a JSON string: `"…"`, escaped as SQLite's json_object escapes it. */
  jsonString(text: SQLWrapper): SQL;
  /** An integer 0/1 (a boolean column) as JSON `true`/`false`. */
  jsonBoolean(flag: SQLWrapper): SQL;
  /** A text holding JSON (minified, as JSON.stringify writes it), put in as it is. */
  jsonEmbedded(json: SQLWrapper): SQL;
  /** The JSON array of an aggregate's values (texts, or NULL): an aggregate function. The elements' order is the engine's (read it as a set). */
  jsonGroupArray(text: SQLWrapper): SQL;
  /** A top-level field of a JSON object text, as text (`->>`). */
  jsonField(json: SQLWrapper, key: string): SQL;
  /** An element of a JSON array value (jsonRows' `value` with elements "json"): a JSON number as an integer when `type` says so, else as text. */
  jsonItem(json: SQLWrapper, index: number, type?: ValueType): SQL;
  /**
   * Epoch milliseconds (an integer) as ISO 8601 in UTC with milliseconds, as Date.prototype.toISOString writes it
   * from 1970 to 9999 (SQLite's strftime: `-001` for the year 2 BC, NULL outside 4713 BC to 9999).
   */
  isoTimestamp(ms: SQLWrapper): SQL;
  /** isoTimestamp of a nullable column: NULL for NULL. */
  isoTimestampOrNull(ms: SQLWrapper): SQL;
  /** `column LIKE pattern ESCAPE '\'` with ASCII letters matching either case and no other folding (SQLite's LIKE; PostgreSQL's ILIKE over COLLATE "C" text). */
  likeAnyCase(column: SQLWrapper, pattern: SQLWrapper): SQL;
  /**
   * A FROM item: the rows of `signups` (the table and its id column as the statement names them) that the email search
   * index finds, with emailSearchMatch in the WHERE clause; the keywords in the statement's case. SQLite drives the join from
   * its FTS5 trigram table `signup_email_search`; PostgreSQL reads `signups` itself (a pg_trgm index on `signups.email`).
   */
  emailSearchFrom(signupsTable: SQLWrapper, signupsId: SQLWrapper, keywords?: Keywords): SQL;
  /** In a statement FROM emailSearchFrom: the search index's test, `pattern` a LIKE pattern (no escapes) of the address in any case. */
  emailSearchMatch(signupsEmail: SQLWrapper, pattern: SQLWrapper, keywords?: Keywords): SQL;
  /** A condition on a row of `signups`: the search index finds it for `pattern` (as emailSearchMatch). */
  emailSearchHas(signupsId: SQLWrapper, signupsEmail: SQLWrapper, pattern: SQLWrapper): SQL;
  /**
   * A join SQLite must not reorder (its CROSS JOIN … ON: the left table drives); an inner join on PostgreSQL, which
   * refuses ON after CROSS JOIN and plans the order itself. Keywords in the statement's case.
   */
  crossJoin(keywords?: Keywords): SQL;
  /** After a subquery in FROM: its name, which PostgreSQL before 16 requires; SQLite's statements are written without one. */
  subqueryName(name: string): SQL;
  /** Whether `text` holds `part` (a plain substring, no pattern), in the case each is given. */
  holds(text: SQLWrapper, part: SQLWrapper): SQL;
  /** How many rows of a group a condition holds for (NULL over none), as an aggregate. */
  countTrue(condition: SQLWrapper): SQL;
  /**
   * An INSERT whose row replaces the one holding the same primary key (`key`, its columns' names, among
   * `columns`): SQLite's INSERT OR REPLACE, PostgreSQL's ON CONFLICT … DO UPDATE of every other column.
   */
  insertOrReplace(table: string, columns: readonly string[], key: readonly string[], values: SQL): SQL;
  /** Epoch seconds (an integer) as the UTC day `YYYY-MM-DD` (SQLite's date(…, 'unixepoch'): NULL outside 4713 BC to 9999). */
  utcDate(seconds: SQLWrapper): SQL;
  /** The UTC day of epoch milliseconds: utcDate of the whole seconds (toward zero, as integer division goes: -1 ms is 1970-01-01). */
  utcDateOfMs(ms: SQLWrapper): SQL;
  /** A LIMIT's count where a negative one means no limit (SQLite's reading; PostgreSQL refuses it and takes NULL as none). */
  limitCount(count: SQLWrapper): SQL;
  /**
   * At the end of an EXISTS subquery's WHERE: the subquery stays a test of each row the statement walks, as SQLite runs
   * it. PostgreSQL otherwise turns it into a join planned from its estimate of the subquery's rows, which for a custom
   * input is off by orders of magnitude (one row for 194,157; a generic plan's 170): it then joined every match and
   * sorted them (550–880 ms for the dashboard's first page of role=Engineer on a 1M list) where the walk stops after ~130.
   * `OFFSET 0` keeps PostgreSQL from pulling the subquery up.
   */
  testedPerRow(): SQL;
  /**
   * Whether an offset page that a walk in order would reach only after more rows than an index's collection of the
   * scope holds reads that collection, sorted, instead (lib/domain/signups/access.ts, deepPageAccess). PostgreSQL:
   * its walk tests each signup's custom input (testedPerRow), so the last reachable page of an input that 1 % of a 1M
   * list has walked all of it (2.8–4.3 s), where collecting its 10,496 signups and sorting them took 0.1–0.4 s.
   * SQLite's pages walk, as they always have.
   */
  collectsDeepPages: boolean;
}

/** SQLite's spellings. */
export const sqliteDialect: Dialect = {
  jsonRows: (array, alias) => sql`json_each(${array}) AS ${sql.raw(alias)}`,
  inJson: (array) => sql`IN (SELECT value FROM json_each(${array}))`,
  indexedBy: (index) => sql.raw(`INDEXED BY ${index}`),
  notIndexed: (column) => sql`+${column}`,
  seekable: (value) => sql`${value} collate binary`,
  jsonRowsInOrder: (array, alias) => sql`json_each(${array}) AS ${sql.raw(alias)}`,

  typed: (value) => sql`${value}`,
  integerOf: (value) => sql`cast(${value} AS integer)`,
  jsonObject: (entries) =>
    sql`json_object(${sql.join(
      entries.map(([key, value]) => sql`${sql.raw(sqlString(key))}, ${value}`),
      sql`, `,
    )})`,
  jsonString: (text) => sql`${text}`,
  jsonBoolean: (flag) => sql`json(iif(${flag}, 'true', 'false'))`,
  jsonEmbedded: (json) => sql`json(${json})`,
  jsonGroupArray: (text) => sql`json_group_array(${text})`,
  jsonField: (json, key) => sql`${json} ->> ${sql.raw(sqlString(`$.${key}`))}`,
  jsonItem: (json, index) => sql`${json} ->> ${sql.raw(sqlString(`$[${index}]`))}`,
  isoTimestamp: (ms) => sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${ms} / 1000.0, 'unixepoch')`,
  // One template, not isoTimestamp nested: Drizzle writes a one-table select's own columns unqualified only at a field's top level.
  isoTimestampOrNull: (ms) => sql`iif(${ms} is null, null, strftime('%Y-%m-%dT%H:%M:%fZ', ${ms} / 1000.0, 'unixepoch'))`,
  utcDate: (seconds) => sql`date(${seconds}, 'unixepoch')`,
  likeAnyCase: (column, pattern) => sql`${column} LIKE ${pattern} ESCAPE '\\'`,
  crossJoin: (keywords = "upper") => sql.raw(keywords === "upper" ? "CROSS JOIN" : "cross join"),
  subqueryName: () => sql``,
  holds: (text, part) => sql`instr(${text}, ${part}) > 0`,
  countTrue: (condition) => sql`sum(${condition})`,
  insertOrReplace: (table, columns, _key, values) => sql`INSERT OR REPLACE INTO ${sql.raw(table)} (${sql.raw(columns.join(", "))}) VALUES (${values})`,
  emailSearchFrom: (signupsTable, signupsId, keywords = "upper") =>
    keywords === "upper"
      ? sql`signup_email_search CROSS JOIN ${signupsTable} ON ${signupsId} = signup_email_search.rowid`
      : sql`signup_email_search cross join ${signupsTable} on ${signupsId} = signup_email_search.rowid`,
  emailSearchMatch: (_signupsEmail, pattern, keywords = "upper") => (keywords === "upper" ? sql`signup_email_search.email LIKE ${pattern}` : sql`signup_email_search.email like ${pattern}`),
  emailSearchHas: (signupsId, _signupsEmail, pattern) => sql`${signupsId} in (select rowid from signup_email_search where email like ${pattern})`,
  utcDateOfMs: (ms) => sql`date(${ms} / 1000, 'unixepoch')`,
  limitCount: (count) => sql`${count}`,
  testedPerRow: () => sql``,
  collectsDeepPages: false,
};

/** A string literal of SQL (both engines quote alike). */
function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

// SQLite's dates run from the Julian day 0 (4713 BC, noon) to the end of 9999; outside, its date functions give NULL.
const FIRST_MS = -210_866_760_000_000;
const END_MS = 253_402_300_800_000;
const DAY_MS = 86_400_000;

/** The astronomical year of a PostgreSQL date or timestamp (1 BC is 0, 2 BC is -1, as SQLite counts). */
const pgYear = (at: SQL) => sql`(CASE WHEN extract(year FROM ${at}) < 0 THEN extract(year FROM ${at})::int + 1 ELSE extract(year FROM ${at})::int END)`;
/** printf("%0<width>d", year), as SQLite writes years (a minus sign counts in strftime's width, not in date's). */
const pgYearText = (year: SQL, negativeDigits: number) =>
  sql`(CASE WHEN ${year} < 0 THEN '-' || lpad((-${year})::text, greatest(${sql.raw(String(negativeDigits))}, length((-${year})::text)), '0') ELSE lpad(${year}::text, 4, '0') END)`;

/** PostgreSQL's spellings, for the same results (and JSON bytes) as SQLite's. */
export const pgDialect: Dialect = {
  jsonRows: (array, alias, elements = "text") => sql`(SELECT ${pgElement(elements)} AS value FROM ${pgElements(array, elements)} AS e(value)) AS ${sql.raw(alias)}`,
  inJson: (array, elements = "text") => sql`IN (SELECT ${pgElement(elements)} FROM ${pgElements(array, elements)} AS e(value))`,
  indexedBy: () => sql``,
  notIndexed: (column) => sql`${column}`,
  seekable: (value) => sql`${value}`,
  jsonRowsInOrder: (array, alias, elements = "text") =>
    sql`(SELECT ${pgElement(elements)} AS value, e.ordinality - 1 AS key FROM ${pgElements(array, elements)} WITH ORDINALITY AS e(value, ordinality)) AS ${sql.raw(alias)}`,

  typed: (value, type) => sql`(${value})::${sql.raw(type)}`,
  integerOf: (value) => sql`cast(${value} AS bigint)`,
  // Assembled from pieces: json_build_object writes `"a" : 1`, and jsonb orders the keys its own way.
  jsonObject: (entries) =>
    sql`(${sql.join(
      entries.map(([key, value], i) => sql`${sql.raw(sqlString(`${i === 0 ? "{" : ","}${JSON.stringify(key)}:`))} || coalesce(${value}, 'null')`),
      sql` || `,
    )} || '}')`,
  jsonString: (text) => sql`to_json((${text})::text)::text`,
  jsonBoolean: (flag) => sql`(CASE WHEN ${flag} <> 0 THEN 'true' ELSE 'false' END)`,
  jsonEmbedded: (json) => sql`(${json})::text`,
  jsonGroupArray: (text) => sql`('[' || coalesce(string_agg(coalesce(to_json((${text})::text)::text, 'null'), ','), '') || ']')`,
  jsonField: (json, key) => sql`((${json})::json ->> ${sql.raw(sqlString(key))})`,
  jsonItem: (json, index, type = "text") => sql`((${json})::json ->> ${sql.raw(String(index))})::${sql.raw(type)}`,
  isoTimestamp: (ms) => {
    const rest = sql`(((${ms}) % ${sql.raw(String(DAY_MS))}) + ${sql.raw(String(DAY_MS))}) % ${sql.raw(String(DAY_MS))}`;
    const at = sql`((date '1970-01-01' + (((${ms}) - ${rest}) / ${sql.raw(String(DAY_MS))})::int) + ${rest} * interval '1 millisecond')`;
    return sql`(CASE WHEN (${ms}) >= ${sql.raw(String(FIRST_MS))} AND (${ms}) < ${sql.raw(String(END_MS))} THEN ${pgYearText(pgYear(at), 3)} || to_char(${at}, '-MM-DD"T"HH24:MI:SS.MS"Z"') END)`;
  },
  isoTimestampOrNull: (ms) => pgDialect.isoTimestamp(ms),
  utcDateOfMs: (ms) => pgDialect.utcDate(sql`(${ms}) / 1000`),
  limitCount: (count) => sql`nullif(greatest(cast(${count} AS bigint), -1), -1)`,
  testedPerRow: () => sql` offset 0`,
  collectsDeepPages: true,
  likeAnyCase: (column, pattern) => sql`${column} ILIKE ${pattern} ESCAPE '\\'`,
  crossJoin: (keywords = "upper") => sql.raw(keywords === "upper" ? "JOIN" : "join"),
  subqueryName: (name) => sql.raw(` AS ${name}`),
  holds: (text, part) => sql`strpos(${text}, ${part}) > 0`,
  countTrue: (condition) => sql`sum((${condition})::int)`,
  insertOrReplace: (table, columns, key, values) =>
    sql`INSERT INTO ${sql.raw(table)} (${sql.raw(columns.join(", "))}) VALUES (${values}) ON CONFLICT (${sql.raw(key.join(", "))}) DO UPDATE SET ${sql.raw(
      columns
        .filter((column) => !key.includes(column))
        .map((column) => `${column} = excluded.${column}`)
        .join(", "),
    )}`,
  emailSearchFrom: (signupsTable) => sql`${signupsTable}`,
  // ESCAPE '': a backslash in the pattern is a character, as in SQLite's LIKE without ESCAPE.
  emailSearchMatch: (signupsEmail, pattern) => sql`${signupsEmail} ILIKE ${pattern} ESCAPE ''`,
  emailSearchHas: (_signupsId, signupsEmail, pattern) => sql`${signupsEmail} ILIKE ${pattern} ESCAPE ''`,
  utcDate: (seconds) => {
    const day = sql`(date '1970-01-01' + floor((${seconds})::numeric / 86400)::int)`;
    return sql`(CASE WHEN (${seconds}) >= ${sql.raw(String(FIRST_MS / 1000))} AND (${seconds}) < ${sql.raw(String(END_MS / 1000))} THEN ${pgYearText(pgYear(day), 4)} || to_char(${day}, '-MM-DD') END)`;
  },
};

/** The rows of a JSON array parameter on PostgreSQL, one column of text (or json) per element. */
function pgElements(array: SQLWrapper, elements: JsonElements): SQL {
  return elements === "json" ? sql`json_array_elements((${array})::json)` : sql`json_array_elements_text((${array})::json)`;
}

/** An element as the type the statement compares it with. */
function pgElement(elements: JsonElements): SQL {
  return elements === "integer" ? sql`e.value::bigint` : sql`e.value`;
}

/** The dialect of a connection's engine. */
export function dialectOf(db: AppDatabase): Dialect {
  return db.$engine.kind === "postgres" ? pgDialect : sqliteDialect;
}
