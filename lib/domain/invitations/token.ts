import "server-only";
import { and, desc, eq, gte, sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { events } from "@/db/schema";
import { DAY_MS } from "@/lib/core/time";
import { preparedOnce } from "@/lib/store/statements";
import { getSignup } from "../signups/queries";
import type { SignupRow } from "../signups/row";
import { readLinkToken, signLinkToken } from "../verification/link-token";

// Invite tokens are stored nowhere: each is signed like the join page's links (HMAC under the
// database's link key, ../verification/link-token.ts) and bound to the time of the invitation it
// belongs to, which is the signup's `status_changed_at` while it stays invited and the time of its
// `signup.invited` event. So a re-invite (a new time) retires the old token, an erased signup
// leaves it naming no one, and inviting 100,000 writes nothing per invitation.

/** What a token says, once its signature holds: whose invitation, of when, good until when. */
export interface InviteClaims {
  waitlistId: string;
  signupId: number;
  /** The invitation's time, epoch ms. */
  invitedAt: number;
  expiresAt: Date;
}

/** A signup's invite token for its invitation at `invitedAt` (epoch ms), good for `expiryDays` from then. */
export async function mintInviteToken(waitlistId: string, signupId: number, invitedAt: number, expiryDays: number, db: AppDatabase = getDb()): Promise<string> {
  return await signLinkToken({ purpose: "invite", waitlistId, signupId, boundTo: invitedAt, expiresAt: new Date(invitedAt + expiryDays * DAY_MS) }, db);
}

/** What a token's text can be at most, and its shape: base64url payload, a dot, a base64url SHA-256. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{1,300}\.[A-Za-z0-9_-]{43}$/;

/**
 * Where an invitation stands: `malformed` (not a token's shape), `unknown` (forged, mangled, or its
 * signup erased), `expired`, `withdrawn` (the signup is no longer in this invitation: withdrawn,
 * invited again, or completed through another one), `valid` (invited by it, not yet redeemed) or
 * `redeemed` (completed while invited by it).
 */
export type InvitationReading =
  | { state: "malformed" | "unknown" | "expired" }
  | { state: "withdrawn"; signup: SignupRow }
  | { state: "valid"; signup: SignupRow; claims: InviteClaims }
  | { state: "redeemed"; signup: SignupRow; claims: InviteClaims };

/** When the signup was last invited, by its newest `signup.invited` event; undefined once that event is pruned. */
async function lastInvitedAt(signupId: number, db: AppDatabase): Promise<number | undefined> {
  const select = preparedOnce(db, "invitations.lastInvited", () =>
    db
      .select({ at: sql<number>`${events.createdAt}` })
      .from(events)
      .where(and(eq(events.signupId, sql.placeholder("signupId")), eq(events.type, "signup.invited")))
      .orderBy(desc(events.id))
      .limit(1)
      .prepare(),
  );
  return (await select.get({ signupId }))?.at;
}

/**
 * Whether a completed signup was completed from the invitation of `invitedAt`: its newest invitation
 * is that one. Past the event log's retention (DELIVERY_RETENTION) the event is gone and the answer
 * rests on the order of the times alone.
 */
async function completedFrom(signup: SignupRow, invitedAt: number, db: AppDatabase): Promise<boolean> {
  const last = await lastInvitedAt(signup.id, db);
  return last === undefined ? (signup.statusChangedAt?.getTime() ?? 0) >= invitedAt : last === invitedAt;
}

/**
 * Whether the invitation of `invitedAt` is the signup's newest and the scheduler expired it
 * (lib/domain/invitations/expire.ts): its `signup.invitation_expired` event came after it.
 */
async function expiredFrom(signup: SignupRow, invitedAt: number, db: AppDatabase): Promise<boolean> {
  if (await lastInvitedAt(signup.id, db) !== invitedAt) return false;
  const select = preparedOnce(db, "invitations.expiredSince", () =>
    db
      .select({ found: sql<number>`1` })
      .from(events)
      .where(and(eq(events.signupId, sql.placeholder("signupId")), eq(events.type, "signup.invitation_expired"), gte(events.createdAt, sql.placeholder("since"))))
      .limit(1)
      .prepare(),
  );
  return await select.get({ signupId: signup.id, since: invitedAt }) !== undefined;
}

/** Reads a token against the database at `now`: see InvitationReading. */
export async function readInvitation(token: string, now = Date.now(), db: AppDatabase = getDb()): Promise<InvitationReading> {
  if (!TOKEN_SHAPE.test(token)) return { state: "malformed" };
  const reading = await readLinkToken(token, "invite", now, db);
  if (!reading.ok) return { state: reading.reason === "expired" ? "expired" : "unknown" };
  const { waitlistId, signupId, boundTo, expiresAt } = reading.claims;
  const signup = await getSignup(waitlistId, signupId, db);
  if (!signup) return { state: "unknown" };
  const claims = { waitlistId, signupId, invitedAt: boundTo!, expiresAt };
  if (signup.status === "invited" && signup.statusChangedAt?.getTime() === claims.invitedAt) return { state: "valid", signup, claims };
  if (signup.status === "completed" && await completedFrom(signup, claims.invitedAt, db)) return { state: "redeemed", signup, claims };
  if (signup.status !== "invited" && await expiredFrom(signup, claims.invitedAt, db)) return { state: "expired" };
  return { state: "withdrawn", signup };
}
