import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CONFIRM_LINK_LIFETIME_MS, readLinkToken, signLinkToken } from "@/lib/domain/verification/link-token";
import { signingKey } from "@/lib/domain/verification/signing-key";
import { tempDatabase, type TempDatabase } from "../../../../support/temp-db";

const WAITLIST = "0b8f8e36-6a51-4f55-9b43-1f1c4c9a2f10";

describe("link tokens", () => {
  let temp: TempDatabase;
  beforeEach(() => (temp = tempDatabase()));
  afterEach(() => temp.close());

  it("reads back what it signed until it expires, and only for its purpose", async () => {
    const now = Date.UTC(2026, 0, 1);
    const token = await signLinkToken({ purpose: "confirm", waitlistId: WAITLIST, signupId: 42, expiresAt: new Date(now + CONFIRM_LINK_LIFETIME_MS) }, temp.db);
    expect(await readLinkToken(token, "confirm", now, temp.db)).toEqual({ ok: true, claims: { purpose: "confirm", waitlistId: WAITLIST, signupId: 42, expiresAt: new Date(now + CONFIRM_LINK_LIFETIME_MS) } });
    expect(await readLinkToken(token, "joined", now, temp.db)).toEqual({ ok: false, reason: "invalid" });
    expect(await readLinkToken(token, "confirm", now + CONFIRM_LINK_LIFETIME_MS, temp.db)).toEqual({ ok: false, reason: "expired" });
  });

  it("refuses a changed payload, a changed signature, another database's token and garbage", async () => {
    const now = Date.UTC(2026, 0, 1);
    const token = await signLinkToken({ purpose: "joined", waitlistId: WAITLIST, signupId: 7, expiresAt: new Date(now + 60_000) }, temp.db);
    const [payload, signature] = token.split(".");
    const other = Buffer.from(`joined.${WAITLIST}.8.${Math.floor((now + 60_000) / 1000)}`).toString("base64url");
    expect((await readLinkToken(`${other}.${signature}`, "joined", now, temp.db)).ok).toBe(false);
    expect((await readLinkToken(`${payload}.${signature!.slice(0, -2)}AA`, "joined", now, temp.db)).ok).toBe(false);
    for (const junk of ["", ".", "a.b.c", "x".repeat(500)]) expect(await readLinkToken(junk, "joined", now, temp.db)).toEqual({ ok: false, reason: "invalid" });
    const elsewhere = tempDatabase();
    try {
      expect((await signingKey("link_signing_key", elsewhere.db)).equals(await signingKey("link_signing_key", temp.db))).toBe(false);
      expect(await readLinkToken(token, "joined", now, elsewhere.db)).toEqual({ ok: false, reason: "invalid" });
    } finally {
      elsewhere.close();
    }
  });

  it("keeps one key per database and name", async () => {
    const first = await signingKey("link_signing_key", temp.db);
    expect(first).toHaveLength(32);
    expect((await signingKey("link_signing_key", temp.db)).equals(first)).toBe(true);
    expect((await signingKey("challenge_signing_key", temp.db)).equals(first)).toBe(false);
  });
});
