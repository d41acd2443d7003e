import { describe, expect, it } from "vitest";
import { newReferralCode, REFERRAL_CODE_LENGTH, REFERRAL_CODE_PATTERN } from "@/lib/domain/joining/referral-code";

describe("newReferralCode", () => {
  it("makes short codes of an alphabet without look-alikes (no 0, 1, l, o), every letter of it used, none repeated in 10,000", () => {
    const codes = Array.from({ length: 10_000 }, newReferralCode);
    for (const code of codes.slice(0, 100)) expect(code).toMatch(REFERRAL_CODE_PATTERN);
    expect(codes[0]).toHaveLength(REFERRAL_CODE_LENGTH);
    expect(new Set(codes).size).toBe(codes.length);
    const letters = new Set(codes.join(""));
    expect(letters.size).toBe(32);
    for (const lookAlike of ["0", "1", "l", "o"]) expect(letters.has(lookAlike)).toBe(false);
  });
});
