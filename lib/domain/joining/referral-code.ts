import "server-only";
import { randomBytes } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { AppDatabase } from "@/db/client";
import { signups } from "@/db/schema";
import { dialectOf } from "@/lib/store/dialect";
import { preparedOnce, valuePlaceholder } from "@/lib/store/statements";

// A signup's referral code: 10 characters of a 32-letter alphabet without look-alikes of each other (no 0, 1, l, o: 50 bits from
// crypto.randomBytes), so a code is short enough to type and cannot be guessed. Unique across all
// waitlists (signups_referral_code_unique): a collision, about one in 10^15 per code, is drawn again.

const ALPHABET = "23456789abcdefghijkmnpqrstuvwxyz";
export const REFERRAL_CODE_LENGTH = 10;
export const REFERRAL_CODE_PATTERN = new RegExp(`^[${ALPHABET}]{${REFERRAL_CODE_LENGTH}}$`);

export function newReferralCode(): string {
  const bytes = randomBytes(REFERRAL_CODE_LENGTH);
  let code = "";
  for (const byte of bytes) code += ALPHABET[byte % ALPHABET.length];
  return code;
}

function statements(db: AppDatabase) {
  return preparedOnce(db, "joining.referralCode", () => ({
    taken: db.select({ code: signups.referralCode }).from(signups).where(sql`${signups.referralCode} ${dialectOf(db).inJson(sql.placeholder("codes"))}`).prepare(),
    ofSignup: db.select({ code: signups.referralCode }).from(signups).where(eq(signups.id, sql.placeholder("id"))).prepare(),
    assign: db
      .update(signups)
      .set({ referralCode: valuePlaceholder("code") })
      .where(and(eq(signups.id, sql.placeholder("id")), isNull(signups.referralCode)))
      .prepare(),
    owner: db
      .select({ id: signups.id })
      .from(signups)
      .where(and(eq(signups.referralCode, sql.placeholder("code")), eq(signups.waitlistId, sql.placeholder("waitlistId"))))
      .prepare(),
  }));
}

/** `count` different codes no signup has yet, looked up in one statement. Call it inside the transaction that stores them. */
export async function unusedReferralCodes(count: number, db: AppDatabase): Promise<string[]> {
  const codes = new Set<string>();
  while (codes.size < count) {
    const drawn = new Set<string>();
    while (drawn.size < count - codes.size) {
      const code = newReferralCode();
      if (!codes.has(code)) drawn.add(code);
    }
    const taken = new Set((await statements(db).taken.all({ codes: JSON.stringify([...drawn]) })).map((row) => row.code));
    for (const code of drawn) if (!taken.has(code)) codes.add(code);
  }
  return [...codes];
}

/**
 * The signup's code, made and stored now when it has none (a signup imported, not joined). Call it
 * inside a write transaction.
 */
export async function referralCodeOf(signupId: number, db: AppDatabase): Promise<string> {
  const prepared = statements(db);
  const stored = (await prepared.ofSignup.get({ id: signupId }))?.code;
  if (stored) return stored;
  const code = (await unusedReferralCodes(1, db))[0]!;
  await prepared.assign.run({ code, id: signupId });
  return code;
}

/** The signup of this waitlist that has the code; undefined for any other text. */
export async function signupWithReferralCode(waitlistId: string, code: string, db: AppDatabase): Promise<number | undefined> {
  const normalized = code.trim().toLowerCase();
  if (!REFERRAL_CODE_PATTERN.test(normalized)) return undefined;
  return (await statements(db).owner.get({ code: normalized, waitlistId }))?.id;
}
