import { and, asc, sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { signups } from "@/db/schema";
import { afterPosition, type Position } from "@/lib/store/keyset";
import { preparedSql } from "@/lib/store/statements";
import { rowsShape, signupJsonBatches, signupJsonSql } from "./queries";
import { DEFAULT_SIGNUP_FIELDS, type SignupField } from "./response";
import type { SignupScope } from "./filter";
import { scopeWhere, shapeKey, type ScopeShape } from "./scope-sql";

/** A stream's piece: JSON texts, or their UTF-8 bytes already joined by commas. */
export type JsonChunk = readonly string[] | Uint8Array;

const PG_PAGE = 1000;
const AFTER = { createdAt: sql.placeholder("afterCreatedAt"), id: sql.placeholder("afterId") };

// On PostgreSQL a page comes back as one text of its JSON objects joined by commas, with its count and
// last position, and stays the bytes the server sent. Read as a thousand strings a page, the stream of
// 1,000,000 signups grew the server by 186–210 MB: in a process with a large heap (Next.js's) almost
// every string outlived a scavenge while the page arrived and went to the old generation, collected
// only at the next full collection (the bench's `stream`, PostgreSQL 15). Bytes are outside the
// JavaScript heap, and V8 collects them as they pile up.
function pgPageStatement(db: AppDatabase, shape: ScopeShape, continued: boolean, fields: readonly SignupField[]) {
  return preparedSql(db, `signups.jsonChunk:${shapeKey(shape)}:${continued ? "after" : "first"}:${fields.join(",")}`, (dialect) => {
    const page = db
      .select({ createdAt: signups.createdAt, id: signups.id, json: sql<string>`${signupJsonSql(dialect, fields)}`.as("json") })
      .from(signups)
      .where(and(scopeWhere(shape, dialect), continued ? afterPosition(dialect, signups.createdAt, signups.id, AFTER) : undefined))
      .orderBy(asc(signups.createdAt), asc(signups.id))
      .limit(sql.placeholder("take"));
    const last = sql`ORDER BY page.created_at DESC, page.id DESC`;
    return sql`SELECT count(*), (array_agg(page.created_at ${last}))[1], (array_agg(page.id ${last}))[1], string_agg(page.json, ',' ORDER BY page.created_at, page.id)
      FROM (${page}) AS page`;
  });
}

const numberOf = (bytes: Uint8Array | null) => Number(Buffer.from(bytes ?? []).toString());

async function* pgJsonChunks(scope: SignupScope, fields: readonly SignupField[], db: AppDatabase): AsyncGenerator<JsonChunk> {
  const { shape, params } = await rowsShape(scope, db);
  let after: Position | undefined;
  for (;;) {
    const [[count, lastCreatedAt, lastId, json] = []] = await pgPageStatement(db, shape, after !== undefined, fields).bytes({
      ...params,
      afterCreatedAt: after?.createdAt ?? null,
      afterId: after?.id ?? null,
      take: PG_PAGE,
    });
    const rows = numberOf(count ?? null);
    if (rows > 0 && json) yield json;
    if (rows < PG_PAGE) return;
    after = { createdAt: numberOf(lastCreatedAt ?? null), id: numberOf(lastId ?? null) };
  }
}

/**
 * Every signup of a scope in creation order, as the pieces of a stream's body (as signupJsonBatches):
 * on PostgreSQL each page's JSON as bytes (above), on SQLite signupJsonBatches' texts.
 */
export function signupJsonChunks(scope: SignupScope, fields: readonly SignupField[] = DEFAULT_SIGNUP_FIELDS, db: AppDatabase = getDb()): AsyncGenerator<JsonChunk> {
  return db.$engine.kind === "postgres" ? pgJsonChunks(scope, fields, db) : signupJsonBatches(scope, undefined, db, fields);
}
