import { getDb, type AppDatabase } from "@/db/client";
import { waitlists } from "@/db/schema";
import { DAY_MS, MINUTE_MS } from "@/lib/core/time";
import { startBulkInsert } from "@/lib/domain/signups/bulk-insert";
import { writeTransaction } from "@/lib/store/transaction";
import type { NewSignup } from "@/lib/domain/signups/queries";
import { seededRandom, type Random } from "./random";
import { COMPANIES, COMPANY_DOMAINS, FIRST_NAMES, JOB_ROLES, LAST_NAMES, MAIL_DOMAINS, REFERRAL_SOURCES } from "./vocabulary";

const SPREAD_DAYS = 90;

/** Fixed ids make the seed idempotent: a waitlist that exists is left alone. */
export const DEMO_WAITLISTS = [
  { id: "3f1c6a2e-8b7d-4e5f-9a01-2b3c4d5e6f70", name: "Nimbus Notes beta", website: "https://nimbusnotes.example/", signups: 60_000 },
  { id: "7a9e0c4b-1d2f-4a6b-8c3d-5e7f9a1b2c3d", name: "Orbit Analytics early access", website: "https://orbit-analytics.example/", signups: 4_200 },
  { id: "b2d4f6a8-3c5e-4f70-9b1d-2e4f6a8c0e12", name: "Fieldwork mobile app", website: "https://fieldwork.example/app", signups: 1_500 },
  { id: "c8e0a2b4-5d6f-4a81-b3c5-d7e9f1a3b5c7", name: "Larder recipe box", website: "https://larder.example/", signups: 300 },
  { id: "e4f6a8b0-9c1d-4e2f-a345-6b7c8d9e0f12", name: "Quiet Hours launch", website: "https://quiet-hours.example/", signups: 0 },
] as const;

export interface SeedResult {
  waitlists_created: number;
  signups_created: number;
}

function emailFor(random: Random, first: string, last: string, company: string | undefined): string {
  const f = first.toLowerCase();
  const l = last.toLowerCase();
  const domain = company && random.chance(0.6) ? COMPANY_DOMAINS[company]! : random.pick(MAIL_DOMAINS);
  const local = random.pick([`${f}.${l}`, `${f}.${l}`, `${f}${l}`, `${f[0]}.${l}`, `${f}_${l}`, `${f}${l[0]}`, `${l}.${f}`]);
  const suffix = random.chance(0.3) ? String(random.int(1, 99)) : "";
  return `${local}${suffix}@${domain}`;
}

function customInputsFor(random: Random, company: string | undefined, referral: boolean): string {
  const inputs: { label: string; value: string }[] = [];
  if (company) inputs.push({ label: "company", value: company });
  if (company || random.chance(0.3)) inputs.push({ label: "role", value: random.pick(JOB_ROLES) });
  if (referral && random.chance(0.5)) inputs.push({ label: "heard_from", value: random.pick(REFERRAL_SOURCES) });
  return JSON.stringify(inputs);
}

/** Signup times over the last 90 days, more of them recently (a waitlist that is catching on). */
function signupTimes(random: Random, count: number, now: number): number[] {
  const times = Array.from({ length: count }, () => now - Math.floor(Math.pow(random.next(), 1.8) * SPREAD_DAYS * DAY_MS));
  return times.sort((a, b) => a - b);
}

function demoSignups(seed: number, count: number, now: number): NewSignup[] {
  const random = seededRandom(seed);
  const seen = new Set<string>();
  return signupTimes(random, count, now).map((createdAt) => {
    const company = random.chance(0.7) ? random.pick(COMPANIES) : undefined;
    let email: string;
    do email = emailFor(random, random.pick(FIRST_NAMES), random.pick(LAST_NAMES), company);
    while (seen.has(email));
    seen.add(email);
    const referral = random.chance(0.25);
    return { email, verified: random.chance(0.6), referral, customInputs: customInputsFor(random, company, referral), createdAt };
  });
}

/**
 * Adds the demo waitlists and their signups (deterministic content; times relative to `now`).
 * Idempotent: each waitlist is written in one transaction together with its signups, and one
 * that already exists is skipped.
 */
export async function seedDemoData({ now = new Date() }: { now?: Date } = {}, db: AppDatabase = getDb()): Promise<SeedResult> {
  const result: SeedResult = { waitlists_created: 0, signups_created: 0 };
  const nowMs = now.getTime();
  for (const [index, demo] of DEMO_WAITLISTS.entries()) {
    await writeTransaction(db, async () => {
      const created = await db
        .insert(waitlists)
        .values({ id: demo.id, name: demo.name, website: demo.website, createdAt: new Date(nowMs - (SPREAD_DAYS + 1) * DAY_MS + index * MINUTE_MS) })
        .onConflictDoNothing()
        .run();
      if (created.changes === 0) return;
      result.waitlists_created++;
      const bulk = startBulkInsert(demo.id, db);
      result.signups_created += await bulk.add(demoSignups(index + 1, demo.signups, nowMs), nowMs);
      await bulk.finish();
    });
  }
  return result;
}
