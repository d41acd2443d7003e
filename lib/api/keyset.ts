import { decodeCursor } from "./cursor";
import type { Position } from "@/lib/sqlite/keyset";
import { invalidParameter } from "@/lib/core/errors";

/**
 * The page request of a list: null for "everything", else a page size and where to start.
 * A cursor only continues a paged walk, so it needs `limit` (the `Link` header always carries both).
 */
export function parseKeyset(
  scope: string,
  { limit, cursor }: { limit?: number; cursor?: string },
  idType: "number" | "string",
): { limit: number; after?: Position } | null {
  if (cursor === undefined) return limit === undefined ? null : { limit };
  if (limit === undefined) throw invalidParameter("cursor", 'The query parameter "cursor" needs "limit" too: follow the Link header, which carries both.');
  const after = decodeCursor(scope, cursor);
  if (typeof after.id !== idType) throw invalidParameter("cursor", "The cursor is not one this API issued.");
  return { limit, after };
}
