import { cachedStatement } from "../statement-cache";

const translated = new Map<string, string>();

// Drizzle's SQLite builder names an upsert's conflict target with its table ("t"."c"): PostgreSQL takes bare column names there.
const CONFLICT_TARGET = /\bon conflict \(([^)]*)\)/g;
const QUALIFIED_COLUMN = /"[^"]+"\.("[^"]+")/g;

// It writes `null` for a column given no value (SQLite then numbers an INTEGER PRIMARY KEY): on
// PostgreSQL an identity column refuses NULL, and `default` is what a column given no value gets.
const BUILDER_INSERT_VALUES = /^(insert into "[^"]+" \([^)]*\) values )(.*?)( on conflict .*| returning .*)?$/s;
const ABSENT_VALUE = /(?<=[(,] ?)null(?=[,)])/g;

// A bare name in camelCase (`AS windowEnd`): SQLite keeps its case, PostgreSQL folds it to lower case
// unless it is quoted, and the row's field would lose its name.
const CAMEL_CASE_NAME = /\b[a-z][a-z0-9_]*[A-Z][A-Za-z0-9_]*\b/g;

/**
 * A statement of Drizzle's SQLite builder or of `preparedSql` (values as `?`), as PostgreSQL takes
 * it: its values numbered (`$1`, `$2`, …), camelCase names quoted, an upsert's conflict target bare,
 * absent values the column's default. What is inside a string literal, a quoted name or a comment
 * stays as it is. Each text is translated once.
 */
export function postgresText(text: string): string {
  return cachedStatement(translated, text, () =>
    inCode(text)
      .replace(BUILDER_INSERT_VALUES, (_, insert: string, rows: string, rest = "") => `${insert}${rows.replace(ABSENT_VALUE, "default")}${rest}`)
      .replace(CONFLICT_TARGET, (_, columns: string) => `on conflict (${columns.replace(QUALIFIED_COLUMN, "$1")})`),
  );
}

/** The text with its placeholders numbered and camelCase names quoted, outside literals, quoted names and comments. */
function inCode(text: string): string {
  let out = "";
  let n = 0;
  let from = 0;
  const code = (end: number) => {
    out += text.slice(from, end).replace(/\?/g, () => `$${++n}`).replace(CAMEL_CASE_NAME, '"$&"');
  };
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    const closing = char === "'" || char === '"' ? char : text.startsWith("--", i) ? "\n" : text.startsWith("/*", i) ? "*/" : undefined;
    if (closing === undefined) continue;
    code(i);
    const start = i;
    i = text.indexOf(closing, i + (closing === "*/" ? 2 : 1));
    // A quote inside a literal is written twice ('it''s'): the literal goes on after it.
    while (i !== -1 && (closing === "'" || closing === '"') && text[i + 1] === closing) i = text.indexOf(closing, i + 2);
    i = i === -1 ? text.length - 1 : i + closing.length - 1;
    out += text.slice(start, i + 1);
    from = i + 1;
  }
  code(text.length);
  return out;
}
