import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { JOINED_SEAL_LENGTH, openJoined, sealJoined } from "@/lib/domain/verification/joined-seal";
import { tempDatabase, type TempDatabase } from "../../../../support/temp-db";

const WAITLIST = "0b8f8e36-6a51-4f55-9b43-1f1c4c9a2f10";
const OTHER = "5c1e0b8e-1f0a-4c3e-9a57-0c6f1d2e3a4b";

describe("the join form's seal", () => {
  let temp: TempDatabase;
  beforeEach(() => (temp = tempDatabase()));
  afterEach(() => temp.close());

  it("a new signup's and an existing address's seals have one length and alphabet, differ every time, and open only with this database's key", async () => {
    const now = Date.UTC(2026, 0, 1);
    const until = new Date(now + 60_000);
    const seals = [await sealJoined(WAITLIST, { signupId: 1 }, until, temp.db), await sealJoined(WAITLIST, { signupId: 123_456_789 }, until, temp.db), await sealJoined(WAITLIST, { existing: true }, until, temp.db), await sealJoined(WAITLIST, { existing: true }, until, temp.db)];
    for (const seal of seals) expect(seal).toMatch(new RegExp(`^[A-Za-z0-9_-]{${JOINED_SEAL_LENGTH}}$`));
    expect(new Set(seals).size).toBe(4);
    expect(await Promise.all(seals.map((seal) => openJoined(seal, WAITLIST, now, temp.db)))).toEqual([{ signupId: 1 }, { signupId: 123_456_789 }, { existing: true }, { existing: true }]);
    // Expired, another list's, mangled, forged elsewhere: nothing.
    expect(await openJoined(seals[0], WAITLIST, until.getTime(), temp.db)).toBeUndefined();
    expect(await openJoined(seals[0], OTHER, now, temp.db)).toBeUndefined();
    const flipped = `${seals[0]!.slice(0, 20)}${seals[0]![20] === "A" ? "B" : "A"}${seals[0]!.slice(21)}`;
    expect(await openJoined(flipped, WAITLIST, now, temp.db)).toBeUndefined();
    for (const junk of [undefined, "", "x".repeat(JOINED_SEAL_LENGTH), `${seals[0]}A`]) expect(await openJoined(junk, WAITLIST, now, temp.db)).toBeUndefined();
    const elsewhere = tempDatabase();
    try {
      expect(await openJoined(await sealJoined(WAITLIST, { signupId: 1 }, until, elsewhere.db), WAITLIST, now, temp.db)).toBeUndefined();
    } finally {
      elsewhere.close();
    }
  });
});
