import type { AppDatabase } from "@/db/client";

/**
 * The SQL texts of the statements the app prepares on `db` while `run` runs (its own statements,
 * through Drizzle or by hand: both call the connection's prepare). Use a fresh connection: a
 * statement prepared before (lib/store/statements.ts keeps them) is not prepared again.
 */
export async function statementsPreparedBy(db: AppDatabase, run: () => Promise<unknown>): Promise<string[]> {
  const client = db.$client;
  const prepare = client.prepare;
  const texts: string[] = [];
  client.prepare = ((text: string) => {
    texts.push(text);
    return prepare.call(client, text);
  }) as typeof prepare;
  try {
    await run();
  } finally {
    client.prepare = prepare;
  }
  return texts;
}

/** SQLite's plan of a statement (EXPLAIN QUERY PLAN, every step's detail on one line), its parameters bound to null. */
export function queryPlan(db: AppDatabase, text: string): string {
  const statement = db.$client.prepare(`EXPLAIN QUERY PLAN ${text}`);
  const named = [...new Set(text.match(/@\w+/g) ?? [])];
  const rows = (named.length > 0 ? statement.all(Object.fromEntries(named.map((name) => [name.slice(1), null]))) : statement.all(...Array.from(text.matchAll(/\?/g), () => null))) as {
    detail: string;
  }[];
  return rows.map((row) => row.detail).join("; ");
}
