import { sql, type SQL, type SQLWrapper } from "drizzle-orm";

/** Where a keyset page ends: the sort key of its last row (created_at, then a tie-breaking id). */
export interface Position {
  createdAt: number;
  id: number | string;
}

/**
 * Rows after a position in (created_at, id) order, as one row-value comparison, which SQLite
 * answers with a single range of an index ending in (created_at, id). `after` holds values or
 * placeholders (driver values: epoch milliseconds, not Dates).
 */
export function afterPosition(createdAt: SQLWrapper, id: SQLWrapper, after: { createdAt: unknown; id: unknown }): SQL {
  return sql`(${createdAt}, ${id}) > (${after.createdAt}, ${after.id})`;
}
