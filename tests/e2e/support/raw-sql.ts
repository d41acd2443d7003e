import { getDb } from "@/db/client";

// SQL on the test server's own database, beside the query layer, for what a test checks or sets up
// behind the API's back. Through the engine, so one text runs on SQLite and on PostgreSQL: values as
// `?`, and the text in SQL both engines accept.
const statement = (text: string) => getDb().$engine.prepare(text);

export const rawSql = {
  /** The first row, keyed by column name. */
  get: <Row = Record<string, unknown>>(text: string, ...params: unknown[]) => statement(text).get<Row>(params),
  all: <Row = Record<string, unknown>>(text: string, ...params: unknown[]) => statement(text).all<Row>(params),
  /** The first column of the first row (a count, an id). */
  value: async <T = unknown>(text: string, ...params: unknown[]) => (await statement(text).values(params))[0]?.[0] as T | undefined,
  run: (text: string, ...params: unknown[]) => statement(text).run(params),
};
