import type { APIResponse } from "@playwright/test";
import { getDb, type AppDatabase } from "@/db/client";
import { createApiKey, revokeApiKey } from "@/lib/domain/keys/queries";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { seedSignups } from "./seed-signups";

// Fixtures for the /v1 tests, created through the query layer on the server's own database.

export interface SignupSeed {
  email: string;
  verified: boolean;
  referral: boolean;
  customInputs: Record<string, unknown>[];
  createdAt: number;
}

/** Seeds into a waitlist, on `db` (the app's database unless told), through the app's bulk writer (either engine), in one transaction. */
export async function insertSignups(waitlistId: string, seeds: SignupSeed[], db: AppDatabase = getDb()): Promise<void> {
  await seedSignups(waitlistId, seeds.map((seed) => ({ ...seed, customInputs: JSON.stringify(seed.customInputs) })), db);
}

/**
 * n signups with every verified × referral combination, some sharing a created_at (to exercise the
 * id tie-break), some with custom inputs.
 */
export function makeSignups(n: number, tag: string, start = Date.UTC(2026, 0, 1)): SignupSeed[] {
  return Array.from({ length: n }, (_, i) => ({
    email: `${tag}-${i}@example.com`,
    verified: i % 2 === 0,
    referral: i % 3 === 0,
    customInputs: i % 5 === 0 ? [{ question: "Company", answer: `Co ${i}` }, { tags: ["a", "b"], n: i }] : [],
    createdAt: start + Math.floor(i / 3) * 1000,
  }));
}

export async function waitlistWithSignups(n: number, tag = `w${Date.now()}-${Math.random().toString(36).slice(2, 8)}`) {
  const waitlist = await createWaitlist({ name: `API ${tag}`, website: "https://example.com/launch" });
  const seeds = makeSignups(n, tag);
  await insertSignups(waitlist.id, seeds);
  return { waitlist, seeds };
}

/** Keys for every authentication outcome. */
export async function makeKeys() {
  const viewer = await createApiKey({ name: "api tests viewer", roles: ["waitlist:view"] });
  const noRole = await createApiKey({ name: "api tests no role", roles: [] });
  const revoked = await createApiKey({ name: "api tests revoked", roles: ["waitlist:view"] });
  await revokeApiKey(revoked.id);
  const expired = await createApiKey({ name: "api tests expired", roles: ["waitlist:view"], expiresAt: new Date(Date.now() - 1000) });
  return { viewer: viewer.key, noRole: noRole.key, revoked: revoked.key, expired: expired.key };
}

export const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

/** The URL of the next page from a Link header, or null. */
export function nextLink(response: APIResponse): string | null {
  const link = response.headers()["link"];
  if (!link) return null;
  const match = /^<([^>]+)>; rel="next"$/.exec(link);
  if (!match) throw new Error(`Malformed Link header: ${link}`);
  return match[1]!;
}
