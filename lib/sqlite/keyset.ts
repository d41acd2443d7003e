/** Where a keyset page ends: the sort key of its last row (created_at, then a tie-breaking id). */
export interface Position {
  createdAt: number;
  id: number | string;
}
