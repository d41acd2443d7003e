import { sql, type SQL, type SQLWrapper } from "drizzle-orm";

// Case-insensitive "contains" on a text column, the dashboard's search: SQLite's LIKE ignores ASCII
// case, and the term is matched literally (its %, _ and \ escaped).

/** The LIKE pattern to bind to containsText's placeholder: text that contains `term` literally. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** `column LIKE :placeholder ESCAPE '\'`, with the placeholder bound to containsPattern(term). */
export function containsText(column: SQLWrapper, placeholderName: string): SQL {
  return sql`${column} LIKE ${sql.placeholder(placeholderName)} ESCAPE '\\'`;
}
