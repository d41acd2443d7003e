import { cachedStatement } from "../statement-cache";

const translated = new Map<string, string>();

// Drizzle's SQLite builder names an upsert's conflict target with its table ("t"."c"): PostgreSQL takes bare column names there.
const CONFLICT_TARGET = /\bon conflict \(([^)]*)\)/g;
const QUALIFIED_COLUMN = /"[^"]+"\.("[^"]+")/g;

// It writes `null` for a column given no value (SQLite then numbers an INTEGER PRIMARY KEY): on
// PostgreSQL an identity column refuses NULL, and `default` is what a column given no value gets.
const BUILDER_INSERT_VALUES = /^(insert into "[^"]+" \([^)]*\) values )(.*?)( on conflict .*| returning .*)?$/s;
const ABSENT_VALUE = /(?<=[(,] ?)null(?=[,)])/g;

/** A statement of Drizzle's SQLite builder or of `preparedSql`, as PostgreSQL takes it: its values numbered, its conflict targets bare, absent values the column's default. */
export function postgresText(text: string): string {
  return numberedPlaceholders(text)
    .replace(BUILDER_INSERT_VALUES, (_, insert: string, rows: string, rest = "") => `${insert}${rows.replace(ABSENT_VALUE, "default")}${rest}`)
    .replace(CONFLICT_TARGET, (_, columns: string) => `on conflict (${columns.replace(QUALIFIED_COLUMN, "$1")})`);
}

/**
 * A statement as Drizzle's SQLite builder renders it (values as `?`) in PostgreSQL's numbered
 * placeholders (`$1`, `$2`, …). A `?` inside a string literal, a quoted name or a comment is text,
 * not a value, and stays. Each text is translated once.
 */
export function numberedPlaceholders(text: string): string {
  return cachedStatement(translated, text, () => {
    let out = "";
    let n = 0;
    for (let i = 0; i < text.length; i++) {
      const char = text[i]!;
      const closing = char === "'" || char === '"' ? char : text.startsWith("--", i) ? "\n" : text.startsWith("/*", i) ? "*/" : undefined;
      if (closing !== undefined) {
        // A quote inside a literal is written twice ('it''s'): the literal goes on after it.
        const from = i;
        i = text.indexOf(closing, i + (closing === "*/" ? 2 : 1));
        while (i !== -1 && (closing === "'" || closing === '"') && text[i + 1] === closing) i = text.indexOf(closing, i + 2);
        if (i === -1) i = text.length - 1;
        else i += closing.length - 1;
        out += text.slice(from, i + 1);
      } else {
        out += char === "?" ? `$${++n}` : char;
      }
    }
    return out;
  });
}
