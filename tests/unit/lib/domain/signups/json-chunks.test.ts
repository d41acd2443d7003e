import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppDatabase } from "@/db/client";
import { openPostgres } from "@/db/pg/client";
import { startBulkInsert } from "@/lib/domain/signups/bulk-insert";
import { signupJsonChunks, type JsonChunk } from "@/lib/domain/signups/json-chunks";
import { signupJsonBatches } from "@/lib/domain/signups/queries";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { writeTransaction } from "@/lib/store/transaction";
import { startPostgres } from "@/tests/support/pg-server";
import { SQLITE_AND_PGLITE } from "@/tests/support/each-engine";

// The /v1 stream's pieces: on PostgreSQL a page's JSON as the bytes the server sent (a page of strings
// grew the server by ~200 MB over 1,000,000 signups), on SQLite the texts of signupJsonBatches. Either
// way the body is the same array, in the same order, page after page.

const COUNT = 2345;
const T0 = Date.UTC(2026, 0, 1);

const ENGINES = [
  ...SQLITE_AND_PGLITE,
  {
    engine: "PostgreSQL 15 (postgres.js)",
    open: async () => {
      process.env.SECRETS_KEY ??= "a".repeat(64);
      const server = await startPostgres();
      return { db: await openPostgres(server.url), close: () => void server.stop() };
    },
  },
];

const text = (chunk: JsonChunk) => (chunk instanceof Uint8Array ? Buffer.from(chunk).toString() : chunk.join(","));

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

describe.each(ENGINES)("a signup stream's pieces on $engine", ({ engine, open }) => {
  let db: AppDatabase;
  let close: () => void;
  let waitlistId: string;
  beforeAll(async () => {
    ({ db, close } = await open());
    waitlistId = (await createWaitlist({ name: "Stream", website: "https://stream.example" }, db)).id;
    await writeTransaction(db, async () => {
      const bulk = startBulkInsert(waitlistId, db);
      // Ties on created_at (seven per millisecond) and text that JSON escapes.
      const rows = Array.from({ length: COUNT }, (_, i) => ({
        email: `person${i}@example.com`,
        verified: i % 3 !== 0,
        referral: i % 5 === 0,
        customInputs: i % 2 ? "[]" : JSON.stringify([{ label: "note", value: `"é" ${i}\n` }]),
        createdAt: T0 + Math.floor(i / 7),
      }));
      await bulk.add(rows, T0);
      await bulk.finish();
    });
  }, 120_000);
  afterAll(async () => {
    await db.$engine.close();
    close();
  });

  it("gives every signup once, in creation order, as signupJsonBatches does", async () => {
    for (const [scope, fields] of [[{ waitlistId }, undefined], [{ waitlistId, verified: true }, ["id", "email", "custom_inputs", "created_at"] as const]] as const) {
      const chunks = await collect(signupJsonChunks(scope, fields, db));
      const expected = (await collect(signupJsonBatches(scope, 1000, db, fields))).map((batch) => batch.join(","));
      const body = `[${chunks.map(text).join(",")}]`;
      expect(body).toBe(`[${expected.join(",")}]`);
      expect((JSON.parse(body) as unknown[]).length).toBe(scope.verified ? COUNT - Math.ceil(COUNT / 3) : COUNT);
    }
  });

  it(engine.startsWith("PostgreSQL") ? "reads each page of 1,000 as bytes" : "reads the texts of signupJsonBatches", async () => {
    const chunks = await collect(signupJsonChunks({ waitlistId }, undefined, db));
    expect(chunks.length).toBe(Math.ceil(COUNT / 1000));
    for (const chunk of chunks) expect(chunk instanceof Uint8Array).toBe(engine.startsWith("PostgreSQL"));
    expect(await collect(signupJsonChunks({ waitlistId: "no-such-list" }, undefined, db))).toEqual([]);
  });
});
