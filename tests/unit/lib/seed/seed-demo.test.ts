import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppDatabase } from "@/db/client";
import { DEMO_WAITLISTS, seedDemoData } from "@/lib/seed/seed-demo";
import { countSignups } from "@/lib/domain/signups/counts";
import { signupRowBatches } from "@/lib/domain/signups/queries";
import { listWaitlists } from "@/lib/domain/waitlists/queries";
import { allOf } from "@/tests/support/batches";
import { pgliteDatabase } from "@/tests/support/pglite";
import { tempDatabase } from "@/tests/support/temp-db";

const NOW = new Date("2026-06-01T12:00:00Z");
const DAY = 86_400_000;

const ENGINES = [
  { engine: "SQLite", open: () => Promise.resolve(tempDatabase().db) },
  { engine: "PostgreSQL (PGlite)", open: () => pgliteDatabase() },
];

/** Rows from the middle of the largest waitlist, in id order. */
const sample = (db: AppDatabase) => db.$engine.prepare("SELECT id, email, verified, referral, custom_inputs, created_at FROM signups ORDER BY id LIMIT 500 OFFSET 60000").values([]);

describe.each(ENGINES)("seedDemoData on $engine", ({ open }) => {
  const temp = { db: undefined as unknown as AppDatabase };
  beforeAll(async () => {
    temp.db = await open();
    expect(await seedDemoData({ now: NOW }, temp.db)).toEqual({ waitlists_created: 5, signups_created: DEMO_WAITLISTS.reduce((sum, w) => sum + w.signups, 0) });
  }, 120_000);
  afterAll(() => temp.db.$engine.close());

  it("creates waitlists of different sizes, one of at least 50,000 and one empty", async () => {
    const sizes = await Promise.all((await listWaitlists({}, temp.db)).items.map(async (waitlist) => (await countSignups({ waitlistId: waitlist.id }, temp.db)).total));
    expect(sizes).toEqual(DEMO_WAITLISTS.map((waitlist) => waitlist.signups));
    expect(Math.max(...sizes)).toBeGreaterThanOrEqual(50_000);
    expect(sizes).toContain(0);
  });

  it("has plausible, realistic rows inside the last 90 days, stored in created_at order", async () => {
    const waitlistId = DEMO_WAITLISTS[0].id;
    const counts = await countSignups({ waitlistId }, temp.db);
    expect(counts.verified / counts.total).toBeCloseTo(0.6, 1);
    expect(counts.referral / counts.total).toBeCloseTo(0.25, 1);
    const rows = await allOf(signupRowBatches({ waitlistId }, 5000, temp.db));
    for (const row of rows.slice(0, 2000)) {
      expect(row.email).toMatch(/^[a-z._]+[0-9]*@[a-z.]+\.[a-z]+$/);
      expect(row.createdAt.getTime()).toBeGreaterThanOrEqual(NOW.getTime() - 90 * DAY);
      expect(row.createdAt.getTime()).toBeLessThanOrEqual(NOW.getTime());
    }
    const withCompany = rows.filter((row) => row.customInputs.some((input) => input.label === "company"));
    expect(withCompany.length / rows.length).toBeGreaterThan(0.5);
    expect(rows.some((row) => row.customInputs.length === 0)).toBe(true);
    const ids = rows.map((row) => row.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it("is idempotent", async () => {
    expect(await seedDemoData({ now: new Date() }, temp.db)).toEqual({ waitlists_created: 0, signups_created: 0 });
  });

  it("is deterministic: a second seeding on SQLite gives the same rows, ids included", async () => {
    const other = tempDatabase();
    try {
      await seedDemoData({ now: NOW }, other.db);
      expect(await sample(temp.db)).toEqual(await sample(other.db));
    } finally {
      other.close();
    }
  });
});
