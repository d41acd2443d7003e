import { join } from "node:path";
import type { AppDatabase } from "@/db/client";
import { openPostgres } from "@/db/pg/client";
import { startBulkInsert } from "@/lib/domain/signups/bulk-insert";
import { PG_ROWS_PER_STATEMENT } from "@/lib/domain/signups/bulk-insert-pg";
import type { NewSignup } from "@/lib/domain/signups/queries";
import { writeTransaction } from "@/lib/store/transaction";
import { startPostgres } from "@/tests/support/pg-server";
import { datasetKey, datasetWaitlists, endOfSpan, type Shape } from "./dataset";

// The bench's dataset (dataset.ts) in PostgreSQL: the same waitlists and signups as the SQLite file,
// written by the app's bulk writer, in a throw-away PostgreSQL 15 (tests/support/pg-server.ts) or in
// the database at a URL. A database at a URL keeps it: the next run finds it by its key and reuses it.

export interface PgDataset extends Shape {
  url: string;
  /** The app's database there (a pool of postgres.js connections). */
  db: AppDatabase;
  bigCount: number;
  spanEnd: number;
  /** Seconds spent building (0 when the database had it). */
  buildSeconds: number;
  cached: boolean;
  /** Closes the connection pool, and stops the throw-away server. */
  close(): Promise<void>;
}

const MIGRATIONS = join(process.cwd(), "db", "pg", "migrations");
// The bench's own table, beside the app's: which dataset the database holds.
const MARKER = "CREATE TABLE IF NOT EXISTS bench_dataset (key text PRIMARY KEY, shape text NOT NULL)";

async function query<Row>(db: AppDatabase, text: string, params: unknown[] = []): Promise<Row[]> {
  return db.$engine.prepare(text).all<Row>(params);
}

/** Runs `fill` with the signups table's non-unique indexes dropped, then builds them again from their own definitions: one sort per index (the trigram index above all) instead of an insert per row. */
async function withIndexesBuiltAfter(db: AppDatabase, fill: () => Promise<void>): Promise<void> {
  const indexes = await query<{ name: string; definition: string }>(
    db,
    "SELECT indexname AS name, indexdef AS definition FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'signups' AND indexdef NOT LIKE 'CREATE UNIQUE%'",
  );
  for (const { name } of indexes) await db.$engine.prepare(`DROP INDEX "${name}"`).run([]);
  await fill();
  await writeTransaction(db, async () => {
    await db.$engine.prepare("SET LOCAL maintenance_work_mem = '512MB'").run([]);
    for (const { definition } of indexes) await db.$engine.prepare(definition).run([]);
  });
}

/** Signups into one waitlist as the app writes them (the bulk writer), in one write transaction: PostgreSQL's insertSignups (tests/support/insert-signups.ts). */
export async function insertPgSignups(waitlistId: string, signups: NewSignup[], db: AppDatabase, createdAt = Date.now()): Promise<void> {
  await writeTransaction(db, async () => {
    const bulk = startBulkInsert(waitlistId, db);
    await bulk.add(signups, createdAt);
    await bulk.finish();
  });
}

/** Inserts each waitlist's signups through the bulk writer, a waitlist per transaction, and returns the dataset's shape. */
async function populate(db: AppDatabase, bigCount: number, end: number, onProgress: (inserted: number) => void): Promise<Shape> {
  const ids: string[] = [];
  let total = 0;
  await withIndexesBuiltAfter(db, async () => {
    for (const waitlist of datasetWaitlists(bigCount, end)) {
      await db.$engine.prepare("INSERT INTO waitlists (id, name, website, created_at) VALUES (?, ?, ?, ?)").run([waitlist.id, waitlist.name, waitlist.website, waitlist.createdAt]);
      await writeTransaction(db, async () => {
        const bulk = startBulkInsert(waitlist.id, db);
        const add = async (batch: NewSignup[]) => {
          // Each signup has its own created_at: the writer's default is never used.
          if ((await bulk.add(batch, end)) !== batch.length) throw new Error("the generator repeated an email");
          total += batch.length;
          onProgress(total);
        };
        let batch: NewSignup[] = [];
        for (const signup of waitlist.signups) {
          batch.push(signup);
          if (batch.length === PG_ROWS_PER_STATEMENT) {
            await add(batch);
            batch = [];
          }
        }
        await add(batch);
        await bulk.finish();
      });
      ids.push(waitlist.id);
    }
  });
  // The visibility map and the planner's statistics, as a database that has lived a while has them.
  await db.$engine.prepare("VACUUM ANALYZE").run([]);
  const [middle] = await query<{ email: string }>(db, "SELECT email FROM signups WHERE waitlist_id = ? ORDER BY id LIMIT 1 OFFSET ?", [ids[0], Math.ceil(bigCount / 2) - 1]);
  return { bigWaitlistId: ids[0]!, smallWaitlistIds: ids.slice(1), sampleEmail: middle!.email };
}

/**
 * The dataset in PostgreSQL: in the database at `url` (built there unless it holds it already; a
 * database holding anything else is refused), or in a throw-away PostgreSQL 15 started for it.
 */
export async function preparePgDataset({ url, bigCount = 1_000_000, onProgress = () => {} }: { url?: string; bigCount?: number; onProgress?: (inserted: number) => void } = {}): Promise<PgDataset> {
  const server = url === undefined ? await startPostgres() : undefined;
  const at = url ?? server!.url;
  const db = await openPostgres(at);
  const close = async () => {
    await db.$engine.close();
    await server?.stop();
  };
  try {
    const end = endOfSpan();
    const key = datasetKey(bigCount, end, MIGRATIONS);
    await db.$engine.prepare(MARKER).run([]);
    const [held] = await query<{ key: string; shape: string }>(db, "SELECT key, shape FROM bench_dataset");
    if (held?.key === key) return { ...(JSON.parse(held.shape) as Shape), url: at, db, bigCount, spanEnd: end, buildSeconds: 0, cached: true, close };
    const [{ n } = { n: 0 }] = await query<{ n: number }>(db, "SELECT count(*) AS n FROM signups");
    if (held !== undefined || n > 0) throw new Error(`${db.$engine.location} holds other data: give the bench an empty database (or drop and create this one)`);
    const started = performance.now();
    const shape = await populate(db, bigCount, end, onProgress);
    const buildSeconds = (performance.now() - started) / 1000;
    await db.$engine.prepare("INSERT INTO bench_dataset (key, shape) VALUES (?, ?)").run([key, JSON.stringify(shape)]);
    return { ...shape, url: at, db, bigCount, spanEnd: end, buildSeconds, cached: false, close };
  } catch (error) {
    await close();
    throw error;
  }
}
