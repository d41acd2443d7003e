import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, type AppDatabase } from "@/db/client";
import { keyFileOf } from "@/db/master-key";
import { DAY_MS } from "@/lib/core/time";
import { startSqliteBulkInsert } from "@/lib/domain/signups/bulk-insert";
import type { NewSignup } from "@/lib/domain/signups/queries";
import { fakeSignup, fakeSource } from "./people";
import { seededRandom, seededUuid } from "./random";

// A deterministic database for the benchmark: one waitlist of 1,000,000 (or 10,000,000) signups
// over two years and a few small ones, in a file migrated by the app itself (so tables, indexes and
// triggers are the app's). The file is cached under the OS temp folder by a hash of everything that
// shapes it; each run works on a copy.

const SPAN_DAYS = 730;
const SMALL_WAITLISTS = [25, 1_000, 20_000];
// Bump when the generator changes in a way the hash below cannot see.
const GENERATOR_VERSION = 3;

export interface Dataset {
  /** A fresh working copy for this run. */
  path: string;
  /** The cached file it was copied from (tied-dataset.ts builds its own copy from it). */
  cachedPath: string;
  bigWaitlistId: string;
  bigCount: number;
  smallWaitlistIds: string[];
  /** The email of the big waitlist's middle signup. */
  sampleEmail: string;
  /** Signups end before this instant (today's UTC midnight when the dataset was built) and start two years earlier. */
  spanEnd: number;
  /** Seconds spent building (0 when the cache had it). */
  buildSeconds: number;
  cached: boolean;
}

export interface Shape {
  bigWaitlistId: string;
  smallWaitlistIds: string[];
  /** The email of the big waitlist's middle signup (for exact lookups). */
  sampleEmail: string;
}

function migrationsFingerprint(folder: string): string {
  const hash = createHash("sha256");
  for (const name of readdirSync(folder).filter((file) => file.endsWith(".sql")).sort()) hash.update(name).update(readFileSync(join(folder, name)));
  return hash.digest("hex");
}

/** A name for the dataset of `bigCount` signups ending at `end` in a database the migrations of `migrationsFolder` build. */
export function datasetKey(bigCount: number, end: number, migrationsFolder: string): string {
  return createHash("sha256").update(JSON.stringify({ GENERATOR_VERSION, bigCount, end, SMALL_WAITLISTS, migrations: migrationsFingerprint(migrationsFolder) })).digest("hex").slice(0, 16);
}

/** Signups end at today's UTC midnight, so the dashboard's "last 90 days" always has data; the cache turns over daily. */
export function endOfSpan(): number {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
}

/**
 * Runs `fill` with the table's non-unique indexes dropped, then creates them again from their own
 * SQL: one sorted build per index instead of a B-tree insert per row. The unique email index stays:
 * the bulk writer's ON CONFLICT names it. The schema ends as the migrations left it.
 */
function withIndexesBuiltAfter(sqlite: AppDatabase["$client"], table: string, fill: () => void) {
  const indexes = sqlite
    .prepare<[string], { name: string; sql: string }>("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL AND sql NOT LIKE 'CREATE UNIQUE%'")
    .all(table);
  for (const { name } of indexes) sqlite.exec(`DROP INDEX "${name}"`);
  fill();
  for (const { sql } of indexes) sqlite.exec(sql);
}

interface DatasetWaitlist {
  id: string;
  name: string;
  website: string;
  createdAt: number;
  /** Its signups in insertion order (created_at order), each with its created_at: drawn lazily, so read them all before the next waitlist. */
  signups: Generator<NewSignup & { createdAt: number }>;
}

/**
 * The dataset's waitlists and signups, the same on every engine: the big waitlist first, then the
 * small ones. One seeded stream draws everything in order, so each waitlist's signups must be read
 * to their end before the next waitlist is taken.
 */
export function* datasetWaitlists(bigCount: number, end: number): Generator<DatasetWaitlist> {
  const random = seededRandom(20_261_121);
  const start = end - SPAN_DAYS * DAY_MS;
  // Its own stream, so that every other value is what it was before sources were added.
  const sourceRandom = seededRandom(20_261_128);
  function* signups(count: number) {
    // Evenly spread over the span plus jitter below one step: created_at order is insertion order.
    const step = (end - start) / count;
    for (let n = 0; n < count; n++) {
      const createdAt = Math.floor(start + n * step + random() * step * 0.9);
      const signup = fakeSignup(random, n);
      yield { email: signup.email, verified: random() < 0.6, referral: random() < 0.25, customInputs: signup.customInputs, source: fakeSource(sourceRandom), createdAt };
    }
  }
  const waitlists: [string, number, number][] = [["Launch waitlist", bigCount, start - DAY_MS], ...SMALL_WAITLISTS.map((count, index): [string, number, number] => [`Side project ${index + 1}`, count, start - DAY_MS + index + 1])];
  for (const [name, count, createdAt] of waitlists) {
    yield { id: seededUuid(random), name, website: `https://${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}.example.com`, createdAt, signups: signups(count) };
  }
}

function populate(path: string, bigCount: number, end: number): Shape {
  const db = openDatabase(path);
  const sqlite = db.$client;
  // A scratch file until it is renamed into the cache: no WAL (every page would be written twice),
  // no syncs. A crash leaves only a file to delete.
  sqlite.pragma("journal_mode = MEMORY");
  sqlite.pragma("synchronous = OFF");
  sqlite.pragma("cache_size = -262144"); // 256 MB: sorting the indexes' keys in memory
  const insertWaitlist = sqlite.prepare("INSERT INTO waitlists (id, name, website, created_at) VALUES (?, ?, ?, ?)");

  const ids: string[] = [];
  withIndexesBuiltAfter(sqlite, "signups", () => {
    // One transaction: in a fresh file nothing is journaled but the schema's pages.
    sqlite.transaction(() => {
      for (const waitlist of datasetWaitlists(bigCount, end)) {
        insertWaitlist.run(waitlist.id, waitlist.name, waitlist.website, waitlist.createdAt);
        // As an import writes them: the bulk writer derives counts, input pairs and search entries.
        const bulk = startSqliteBulkInsert(waitlist.id, db);
        for (const signup of waitlist.signups) if (!bulk.add(signup, signup.createdAt)) throw new Error(`the generator repeated ${signup.email}`);
        bulk.finish();
        ids.push(waitlist.id);
      }
    })();
  });
  // The big waitlist's signups were inserted first into an empty table, in created_at order: ids 1 to bigCount.
  const middle = sqlite.prepare<[number], { email: string }>("SELECT email FROM signups WHERE id = ?").get(Math.ceil(bigCount / 2))!;
  sqlite.pragma("optimize");
  sqlite.pragma("journal_mode = WAL");
  sqlite.close();
  return { bigWaitlistId: ids[0]!, smallWaitlistIds: ids.slice(1), sampleEmail: middle.email };
}

/** Copies a database file and its secrets key file (db/master-key.ts), without which the copy does not open. */
export function copyDatabaseFile(from: string, to: string): void {
  copyFileSync(from, to);
  if (existsSync(keyFileOf(from))) copyFileSync(keyFileOf(from), keyFileOf(to));
}

/** Removes the cached datasets of `bigCount` signups other than `keep`: a 10,000,000-signup file takes gigabytes. */
function removeStaleDatasets(cacheDir: string, bigCount: number, keep: string) {
  for (const file of readdirSync(cacheDir)) {
    if (file.startsWith(`dataset-${bigCount}-`) && !file.startsWith(keep)) rmSync(join(cacheDir, file), { force: true });
  }
}

/** Builds (or reuses) the dataset and returns a working copy in `workDir`. */
export function prepareDataset(workDir: string, bigCount = 1_000_000): Dataset {
  const end = endOfSpan();
  const key = datasetKey(bigCount, end, join(process.cwd(), "db", "migrations"));
  const cacheDir = join(tmpdir(), "waitlist-bench-cache");
  const name = `dataset-${bigCount}-${key}`;
  const cachedPath = join(cacheDir, `${name}.db`);
  const shapePath = `${cachedPath}.json`;
  mkdirSync(cacheDir, { recursive: true });

  let buildSeconds = 0;
  const cached = existsSync(cachedPath) && existsSync(shapePath);
  if (!cached) {
    removeStaleDatasets(cacheDir, bigCount, name);
    const building = join(cacheDir, `${name}.building-${process.pid}.db`);
    const started = performance.now();
    const shape = populate(building, bigCount, end);
    buildSeconds = (performance.now() - started) / 1000;
    renameSync(building, cachedPath);
    if (existsSync(keyFileOf(building))) renameSync(keyFileOf(building), keyFileOf(cachedPath));
    rmSync(`${building}-wal`, { force: true });
    rmSync(`${building}-shm`, { force: true });
    // Written last: its presence means the database file is complete.
    writeFileSync(shapePath, JSON.stringify(shape));
  }
  const shape = JSON.parse(readFileSync(shapePath, "utf8")) as Shape;
  const path = join(workDir, "bench.db");
  copyDatabaseFile(cachedPath, path);
  return { path, cachedPath, bigCount, spanEnd: end, ...shape, buildSeconds, cached };
}
