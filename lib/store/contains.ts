import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Dialect } from "./dialect";

// Case-insensitive "contains" on a text column, the dashboard's search: ASCII letters match either
// case (the dialect's likeAnyCase), and the term is matched literally (its %, _ and \ escaped).

/** The LIKE pattern to bind to containsText's placeholder: text that contains `term` literally. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** `column LIKE :placeholder ESCAPE '\'` in any case, with the placeholder bound to containsPattern(term). */
export function containsText(dialect: Dialect, column: SQLWrapper, placeholderName: string): SQL {
  return dialect.likeAnyCase(column, sql.placeholder(placeholderName));
}
