import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { signups } from "@/db/schema";
import type { Dialect } from "@/lib/store/dialect";
import { preparedSql } from "@/lib/store/statements";
import { planScope } from "../signups/access";
import type { SignupScope } from "../signups/filter";
import { scopeWhere, shapeKey } from "../signups/scope-sql";
import { idBoundOf, type LineKey } from "./line";

// The line of a scope: its waiting signups (any other filter kept) in place order (./line.ts), read
// as the same two index walks that SQLite merges. Every row starts with its place key (at, pos, id),
// then the columns asked for. "Invite the next N", sort=position in /v1 and the dashboard read it.

const placeholder = sql.placeholder;

export interface LineRead {
  /** Continue after this place (a keyset page), or from the front. */
  after?: LineKey;
  /** Skip this many first (the dashboard's numbered pages). */
  offset?: number;
  take: number;
  descending?: boolean;
}

/** The scope narrowed to waiting signups; undefined when its status filter excludes them. */
export function waitingScope(scope: SignupScope): SignupScope | undefined {
  if (scope.status !== undefined && !scope.status.includes("waiting")) return undefined;
  return { ...scope, status: ["waiting"] };
}

async function lineStatement(db: AppDatabase, scope: SignupScope, name: string, columns: SQL, read: LineRead) {
  const { shape, params } = await planScope(scope, (plan) => plan.rows, db);
  const direction = read.descending ? sql.raw("desc") : sql.raw("asc");
  const continued = read.after !== undefined;
  const arm = (dialect: Dialect, moved: boolean) => {
    const key = moved ? sql`${signups.lineAt}, ${signups.linePos}` : sql`${signups.createdAt}, ${signups.id}`;
    const from = moved
      ? // `status = 'waiting'` again, as a literal: the scope says it as `in (json_each(?))`, which does not
        // let SQLite use the moved signups' partial index, and the arm walked the whole list (4.1 s of
        // "invite the next 10,000 verified" on a 10M list, against 40 ms).
        sql`${signups.lineAt} is not null and ${signups.status} = 'waiting'${continued ? sql` and (${signups.lineAt}, ${signups.linePos}, ${signups.id}) > (${placeholder("afterAt")}, ${placeholder("afterPos")}, ${dialect.seekable(placeholder("afterId"))})` : sql``}`
      : sql`${signups.lineAt} is null${continued ? sql` and (${signups.createdAt}, ${signups.id}) > (${placeholder("afterAt")}, ${dialect.seekable(placeholder("afterIdBound"))})` : sql``}`;
    return sql`select ${key}, ${signups.id}, ${columns} from ${signups} where ${scopeWhere(shape, dialect)} and ${from}`;
  };
  const statement = preparedSql(db, `ranking.line:${name}:${shapeKey(shape)}:${continued}:${read.offset !== undefined}:${read.descending === true}`, (dialect) =>
    sql`${arm(dialect, false)} union all ${arm(dialect, true)} order by 1 ${direction}, 2 ${direction}, 3 ${direction} limit ${dialect.limitCount(placeholder("take"))}${read.offset !== undefined ? sql` offset ${placeholder("offset")}` : sql``}`,
  );
  return { statement, params };
}

/**
 * Rows of a scope's line: each [at, pos, id, ...columns]. `name` keys the prepared statement of
 * these `columns` (they are part of its SQL). An empty array when the scope excludes waiting signups.
 */
export async function lineRows(scope: SignupScope, name: string, columns: SQL, read: LineRead, db: AppDatabase = getDb()): Promise<unknown[][]> {
  const waiting = waitingScope(scope);
  if (!waiting) return [];
  const { statement, params } = await lineStatement(db, waiting, name, columns, read);
  return await statement.values({
    ...params,
    afterAt: read.after?.at ?? null,
    afterPos: read.after?.pos ?? null,
    afterId: read.after?.id ?? null,
    afterIdBound: read.after ? idBoundOf(read.after.pos, "after") : null,
    take: read.take,
    offset: read.offset ?? null,
  });
}

/** The ids of the first `take` signups in line of a scope (-1: all of them). */
export async function nextInLine(scope: SignupScope, take: number, db: AppDatabase = getDb()): Promise<number[]> {
  return (await lineRows(scope, "ids", sql`null`, { take }, db)).map((row) => row[2] as number);
}
