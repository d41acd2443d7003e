import "server-only";
import { joinedSignup } from "@/lib/domain/joining/join";
import { type JoinedSignup } from "@/lib/domain/joining/join-input";
import { placeByJoining } from "@/lib/domain/joining/position";
import { joinSettingsOf, type JoinSettings } from "@/lib/domain/joining/settings";
import { referralsMadeBy, type ReferralsMade } from "@/lib/domain/people/referrals-made";
import { readLinkToken } from "@/lib/domain/verification/link-token";
import { personMilestones, type PersonMilestone } from "@/lib/domain/milestones/store";
import { renderTemplate } from "@/lib/domain/emails/invitation";
import { getSignup } from "@/lib/domain/signups/queries";
import { waitlistOfPath, type JoinPageWaitlist } from "./public-form";

// The person's own page (/join/{id}/me?t=…) and its forms: what a "person" token (emailed only,
// lib/domain/verification/email.ts personPagePath) opens.

/** The signup a token names on this list, or why it opens nothing: forged or another list's (invalid), past its time (expired), erased (gone). */
export type PersonReading = { ok: true; signupId: number } | { ok: false; reason: "invalid" | "expired" | "gone" };

export async function readPersonToken(waitlistId: string, token: unknown): Promise<Exclude<PersonReading, { reason: "gone" }>> {
  const reading = typeof token === "string" ? await readLinkToken(token, "person") : { ok: false as const, reason: "invalid" as const };
  if (!reading.ok) return reading;
  return reading.claims.waitlistId === waitlistId ? { ok: true, signupId: reading.claims.signupId } : { ok: false, reason: "invalid" };
}

export type PersonView = { waitlist: JoinPageWaitlist } & (
  | { kind: "own"; token: string; settings: JoinSettings; signup: JoinedSignup; referrals: ReferralsMade; placeByJoining: number | null; milestones: PersonMilestone[] }
  | { kind: "invalid" | "expired" | "gone" }
);

/** What /join/{id}/me shows for its `t`; undefined for an unknown waitlist. */
export async function personViewOf(pathId: string, token: string | undefined): Promise<PersonView | undefined> {
  const waitlist = await waitlistOfPath(pathId);
  if (!waitlist) return undefined;
  const reading = await readPersonToken(waitlist.id, token);
  if (!reading.ok) return { waitlist, kind: reading.reason };
  const signup = await joinedSignup(waitlist.id, reading.signupId);
  if (!signup) return { waitlist, kind: "gone" };
  return { waitlist, kind: "own", token: token!, settings: await joinSettingsOf(waitlist.id), signup, referrals: await referralsMadeBy(signup.id), placeByJoining: await placeByJoining(waitlist.id, signup.id), milestones: await milestonesOfPerson(waitlist, signup.id) };
}

/** The waitlist's milestones as the person stands, each message filled in for them as their email was. */
async function milestonesOfPerson(waitlist: JoinPageWaitlist, signupId: number): Promise<PersonMilestone[]> {
  const row = (await getSignup(waitlist.id, signupId))!;
  return (await personMilestones(waitlist.id, signupId)).map((milestone) => ({ ...milestone, message: milestone.message && renderTemplate(milestone.message, waitlist, row) }));
}

/** A page of a token: /join/{id}/me (or its leave page, its data download)?t=…, with more of its query. */
export function personPageUrl(waitlistId: string, token: string, query = "", page: "" | "/leave" | "/download" = ""): string {
  return `/join/${waitlistId}/me${page}?t=${encodeURIComponent(token)}${query}`;
}
