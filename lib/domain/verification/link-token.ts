import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { getDb, type AppDatabase } from "@/db/client";
import { signingKey } from "./signing-key";

// The signed tokens of the join page's links: `<payload>.<signature>`, both base64url, the payload
// `purpose.waitlistId.signupId.expiresAtSeconds` and the signature its HMAC-SHA256 under the
// database's link key (./signing-key.ts). Nothing is stored per token: a confirmation is single use
// because confirming an already verified signup changes nothing (./confirm.ts). An invite token
// (lib/domain/invitations) adds one field, `.boundTo` (epoch ms): the moment of the invitation it
// belongs to, so that a later invitation of the same signup retires it.

/** What a token is for: the confirmation link of the email, the page that shows a signup its place, the person's own page (lib/join/person-view.ts), or an invitation the product redeems. */
export type LinkPurpose = "confirm" | "joined" | "person" | "invite";

/** A confirmation link is good for 7 days (issue 24). */
export const CONFIRM_LINK_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
/** The "you're number N" page after joining: long enough to come back to, not forever. */
export const JOINED_LINK_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
/** The person's own page can erase and export them: as long as the joined page, and a new link is one form away. */
export const PERSON_LINK_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

export interface LinkClaims {
  purpose: LinkPurpose;
  waitlistId: string;
  signupId: number;
  expiresAt: Date;
  /** Only and always on an invite token: when the signup was invited (epoch ms). */
  boundTo?: number;
}

const sign = async (payload: string, db: AppDatabase) => createHmac("sha256", await signingKey("link_signing_key", db)).update(payload, "utf8").digest();

export async function signLinkToken(claims: LinkClaims, db: AppDatabase = getDb()): Promise<string> {
  if ((claims.purpose === "invite") !== (claims.boundTo !== undefined)) throw new Error("an invite token, and only one, is bound to its invitation's time");
  const fields = [claims.purpose, claims.waitlistId, claims.signupId, Math.floor(claims.expiresAt.getTime() / 1000), ...(claims.boundTo === undefined ? [] : [claims.boundTo])];
  const payload = fields.join(".");
  return `${Buffer.from(payload, "utf8").toString("base64url")}.${(await sign(payload, db)).toString("base64url")}`;
}

export type LinkTokenReading = { ok: true; claims: LinkClaims } | { ok: false; reason: "invalid" | "expired" };

/** The claims of a token of this purpose whose signature holds, or why not: forged or mangled (invalid), or past its time (expired). */
export async function readLinkToken(token: string, purpose: LinkPurpose, now = Date.now(), db: AppDatabase = getDb()): Promise<LinkTokenReading> {
  const [encoded, signature, extra] = token.split(".");
  if (!encoded || !signature || extra !== undefined || token.length > 400) return { ok: false, reason: "invalid" };
  const payload = Buffer.from(encoded, "base64url").toString("utf8");
  const given = Buffer.from(signature, "base64url");
  const expected = await sign(payload, db);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "invalid" };
  const match = /^(confirm|joined|person|invite)\.([^.]+)\.([0-9]{1,15})\.([0-9]{1,12})(?:\.([0-9]{1,15}))?$/.exec(payload);
  if (!match || match[1] !== purpose || (purpose === "invite") !== (match[5] !== undefined)) return { ok: false, reason: "invalid" };
  const claims: LinkClaims = { purpose, waitlistId: match[2]!, signupId: Number(match[3]), expiresAt: new Date(Number(match[4]) * 1000), ...(match[5] !== undefined && { boundTo: Number(match[5]) }) };
  return claims.expiresAt.getTime() <= now ? { ok: false, reason: "expired" } : { ok: true, claims };
}
