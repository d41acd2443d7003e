import "server-only";
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { getDb, type AppDatabase } from "@/db/client";
import { signingKey } from "./signing-key";

// What the join form leaves in the browser that submitted it (the cookie of lib/join/submit.ts):
// the new signup's id, or "existing" for an address the list already had, with the waitlist and an
// expiry, sealed with AES-256-GCM under a key derived (HKDF) from the database's link key, so every
// worker agrees on it. The plaintext has one length whatever it holds and each seal has a fresh IV:
// without the key, the seal of a new signup and that of an existing address cannot be told apart.

const IV_BYTES = 12;
const TAG_BYTES = 16;
const ID_DIGITS = 15;
const SECONDS_DIGITS = 12;
const EXISTING = "e";
const NEW = "n";

/** A seal is always this many characters (base64url of IV, a fixed-length plaintext and the tag). */
export const JOINED_SEAL_LENGTH = Math.ceil(((IV_BYTES + 36 + 1 + ID_DIGITS + SECONDS_DIGITS + 3 + TAG_BYTES) * 4) / 3);

export type JoinedSeal = { signupId: number } | { existing: true };

async function key(db: AppDatabase): Promise<Buffer> {
  return Buffer.from(hkdfSync("sha256", await signingKey("link_signing_key", db), Buffer.alloc(0), "waitlist joined seal v1", 32));
}

/** Seals the new signup's id, or `existing`, for one waitlist until `expiresAt`. */
export async function sealJoined(waitlistId: string, seal: JoinedSeal, expiresAt: Date, db: AppDatabase = getDb()): Promise<string> {
  const [kind, id] = "existing" in seal ? [EXISTING, 0] : [NEW, seal.signupId];
  const plaintext = [waitlistId.toLowerCase().padEnd(36, " "), kind, String(id).padStart(ID_DIGITS, "0"), String(Math.floor(expiresAt.getTime() / 1000)).padStart(SECONDS_DIGITS, "0")].join("|");
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", await key(db), iv);
  const sealed = Buffer.concat([iv, cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return sealed.toString("base64url");
}

/** What a seal holds for this waitlist, or undefined: forged, mangled, another list's, or expired. */
export async function openJoined(value: string | undefined, waitlistId: string, now = Date.now(), db: AppDatabase = getDb()): Promise<JoinedSeal | undefined> {
  if (value === undefined || value.length !== JOINED_SEAL_LENGTH || !/^[A-Za-z0-9_-]+$/.test(value)) return undefined;
  const sealed = Buffer.from(value, "base64url");
  let plaintext: string;
  try {
    const decipher = createDecipheriv("aes-256-gcm", await key(db), sealed.subarray(0, IV_BYTES));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    plaintext = Buffer.concat([decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
  const [list, kind, id, seconds] = plaintext.split("|");
  if (list?.trimEnd() !== waitlistId.toLowerCase() || Number(seconds) * 1000 <= now) return undefined;
  if (kind === EXISTING) return { existing: true };
  return kind === NEW && Number(id) > 0 ? { signupId: Number(id) } : undefined;
}
