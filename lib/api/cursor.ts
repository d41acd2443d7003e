import "server-only";
import { z } from "zod";
import type { LineKey } from "@/lib/domain/ranking/line";
import type { Position } from "@/lib/store/keyset";
import { invalidParameter } from "@/lib/core/errors";

const payloadSchema = z.tuple([z.string(), z.number().int().nonnegative(), z.union([z.number().int(), z.string().max(64)])]);
/** A place in line (sort=position): [scope, at, pos, id]. */
const linePayloadSchema = z.tuple([z.string(), z.number().int(), z.number(), z.number().int().positive()]);

function payloadOf(token: string, parameter: string): unknown {
  try {
    return JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
  } catch {
    throw invalidParameter(parameter, "The cursor is not one this API issued.");
  }
}

/**
 * Cursors are opaque to clients: base64url JSON of [scope, created_at, id]. The scope ties a
 * cursor to the list (and filters) it came from, so a cursor from another list is refused.
 */
export function encodeCursor(scope: string, position: Position): string {
  return Buffer.from(JSON.stringify([scope, position.createdAt, position.id])).toString("base64url");
}

export function decodeCursor(scope: string, token: string, parameter = "cursor"): Position {
  const parsed = payloadSchema.safeParse(payloadOf(token, parameter));
  if (!parsed.success) throw invalidParameter(parameter, "The cursor is not one this API issued.");
  const [cursorScope, createdAt, id] = parsed.data;
  if (cursorScope !== scope) throw invalidParameter(parameter, "The cursor belongs to another list or other filters.");
  return { createdAt, id };
}

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

export function encodeLineCursor(scope: string, key: LineKey): string {
  return Buffer.from(JSON.stringify([scope, key.at, key.pos, key.id])).toString("base64url");
}

/** A page request of the line (sort=position), as parseKeyset. */
export function parseLineKeyset(scope: string, { limit, cursor }: { limit?: number; cursor?: string }): { limit: number; after?: LineKey } | null {
  if (cursor === undefined) return limit === undefined ? null : { limit };
  if (limit === undefined) throw invalidParameter("cursor", 'The query parameter "cursor" needs "limit" too: follow the Link header, which carries both.');
  const parsed = linePayloadSchema.safeParse(payloadOf(cursor, "cursor"));
  if (!parsed.success) throw invalidParameter("cursor", "The cursor is not one this API issued.");
  const [cursorScope, at, pos, id] = parsed.data;
  if (cursorScope !== scope) throw invalidParameter("cursor", "The cursor belongs to another list or other filters.");
  return { limit, after: { at, pos, id } };
}
