import "server-only";
import { env } from "@/lib/core/env";
import { JOINED_LINK_LIFETIME_MS } from "@/lib/domain/verification/link-token";
import { openJoined, sealJoined, type JoinedSeal } from "@/lib/domain/verification/joined-seal";

// The cookie the join form leaves in the browser that submitted it: one name, one path (the list's
// pages), one length, whether the address was new or already on the list; only the server can read
// which (lib/domain/verification/joined-seal.ts). /join/{id}/joined reads it.

export const JOINED_COOKIE = "joined";

/**
 * The Set-Cookie of a join form's answer. SameSite=Lax keeps it out of other sites' requests; a list
 * embedded on other sites over https gets SameSite=None; Secure; Partitioned instead, so that the frame
 * on the partner's page keeps it (partitioned: only under that partner's site).
 */
export async function joinedSetCookie(waitlistId: string, seal: JoinedSeal, embedded: boolean, now = Date.now()): Promise<string> {
  const secure = env().PUBLIC_URL.startsWith("https:");
  const value = await sealJoined(waitlistId, seal, new Date(now + JOINED_LINK_LIFETIME_MS));
  const site = embedded && secure ? "SameSite=None; Secure; Partitioned" : `SameSite=Lax${secure ? "; Secure" : ""}`;
  return `${JOINED_COOKIE}=${value}; Path=/join/${waitlistId}; Max-Age=${JOINED_LINK_LIFETIME_MS / 1000}; HttpOnly; ${site}`;
}

/** What the cookie of this list holds, or undefined (none, forged, expired, another list's). */
export async function joinedCookieOf(waitlistId: string, value: string | undefined): Promise<JoinedSeal | undefined> {
  return await openJoined(value, waitlistId);
}
