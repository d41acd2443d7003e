import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "@/db/client";
import { DAY_MS } from "@/lib/core/time";
import { fakeCustomInputs, fakeEmail, seededRandom, seededUuid } from "./random";

// A deterministic database for the benchmark: one waitlist of 1,000,000 signups and a few small
// ones, in a file migrated by the app itself (so tables and indexes are the app's). The file is
// cached under the OS temp folder by a hash of everything that shapes it; each run works on a copy.

const SPAN_DAYS = 90;
const SMALL_WAITLISTS = [25, 1_000, 20_000];
// Bump when the generator changes in a way the hash below cannot see.
const GENERATOR_VERSION = 1;

export interface Dataset {
  /** A fresh working copy for this run. */
  path: string;
  bigWaitlistId: string;
  bigCount: number;
  smallWaitlistIds: string[];
  /** Seconds spent building (0 when the cache had it). */
  buildSeconds: number;
  cached: boolean;
}

interface Shape {
  bigWaitlistId: string;
  smallWaitlistIds: string[];
}

function migrationsFingerprint(): string {
  const folder = join(process.cwd(), "db", "migrations");
  const hash = createHash("sha256");
  for (const name of readdirSync(folder).filter((file) => file.endsWith(".sql")).sort()) hash.update(name).update(readFileSync(join(folder, name)));
  return hash.digest("hex");
}

/** Signups end at today's UTC midnight, so the dashboard's "last 90 days" always has data; the cache turns over daily. */
function endOfSpan(): number {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
}

function populate(path: string, bigCount: number, end: number): Shape {
  const db = openDatabase(path);
  const sqlite = db.$client;
  sqlite.pragma("cache_size = -262144"); // 256 MB: keeps the index pages of a bulk insert in memory
  const random = seededRandom(20_261_121);
  const insertWaitlist = sqlite.prepare("INSERT INTO waitlists (id, name, website, created_at) VALUES (?, ?, ?, ?)");
  const insertSignup = sqlite.prepare("INSERT INTO signups (waitlist_id, email, verified, referral, custom_inputs, created_at) VALUES (?, ?, ?, ?, ?, ?)");
  const start = end - SPAN_DAYS * DAY_MS;

  const addWaitlist = (name: string, count: number, createdAt: number) => {
    const id = seededUuid(random);
    insertWaitlist.run(id, name, `https://${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}.example.com`, createdAt);
    // Evenly spread over the span plus jitter below one step: created_at order is insertion order.
    const step = (end - start) / count;
    for (let n = 0; n < count; n++) {
      const createdAtMs = Math.floor(start + n * step + random() * step * 0.9);
      insertSignup.run(id, fakeEmail(random, n), random() < 0.6 ? 1 : 0, random() < 0.25 ? 1 : 0, fakeCustomInputs(random), createdAtMs);
    }
    return id;
  };

  const shape = sqlite.transaction((): Shape => {
    const bigWaitlistId = addWaitlist("Launch waitlist", bigCount, start - DAY_MS);
    const smallWaitlistIds = SMALL_WAITLISTS.map((count, index) => addWaitlist(`Side project ${index + 1}`, count, start - DAY_MS + index + 1));
    return { bigWaitlistId, smallWaitlistIds };
  })();
  sqlite.pragma("optimize");
  sqlite.pragma("wal_checkpoint(TRUNCATE)");
  sqlite.close();
  return shape;
}

/** Builds (or reuses) the dataset and returns a working copy in `workDir`. */
export function prepareDataset(workDir: string, bigCount = 1_000_000): Dataset {
  const end = endOfSpan();
  const key = createHash("sha256").update(JSON.stringify({ GENERATOR_VERSION, bigCount, end, SMALL_WAITLISTS, migrations: migrationsFingerprint() })).digest("hex").slice(0, 16);
  const cacheDir = join(tmpdir(), "waitlist-bench-cache");
  const cachedPath = join(cacheDir, `dataset-${key}.db`);
  const shapePath = `${cachedPath}.json`;
  mkdirSync(cacheDir, { recursive: true });

  let buildSeconds = 0;
  const cached = existsSync(cachedPath) && existsSync(shapePath);
  if (!cached) {
    const building = join(cacheDir, `dataset-${key}.building-${process.pid}.db`);
    const started = performance.now();
    const shape = populate(building, bigCount, end);
    buildSeconds = (performance.now() - started) / 1000;
    renameSync(building, cachedPath);
    rmSync(`${building}-wal`, { force: true });
    rmSync(`${building}-shm`, { force: true });
    // Written last: its presence means the database file is complete.
    writeFileSync(shapePath, JSON.stringify(shape));
  }
  const shape = JSON.parse(readFileSync(shapePath, "utf8")) as Shape;
  const path = join(workDir, "bench.db");
  copyFileSync(cachedPath, path);
  return { path, bigCount, ...shape, buildSeconds, cached };
}
