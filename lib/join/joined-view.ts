import "server-only";
import { env } from "@/lib/core/env";
import { joinedSignup } from "@/lib/domain/joining/join";
import { type JoinedSignup } from "@/lib/domain/joining/join-input";
import { joinSettingsOf, type JoinSettings } from "@/lib/domain/joining/settings";
import { readLinkToken } from "@/lib/domain/verification/link-token";
import { joinedCookieOf } from "./joined-cookie";
import { waitlistOfPath, type JoinPageWaitlist } from "./public-form";

// The join page after the form (/join/{id}/joined), by the form's cookie or an emailed link's signed token.

type JoinedWaitlist = { waitlist: JoinPageWaitlist; settings: JoinSettings };

/**
 * What /join/{id}/joined shows (issue 29: a person's place, link and status reach only that person):
 * - `own`: the signup's page, to whoever holds an emailed link (`token`: "send the email again" too),
 *   or to the browser that has just created it on a list that does not verify addresses;
 * - `check_inbox`: after the form on a list that verifies addresses, for a new address and one
 *   already on the list alike (each was emailed: the confirmation, or a link to its page);
 * - `already_on_list`: after the form, an address the list already had (verification off): `emailed`
 *   says whether the server sends email (a link to its page went to the address), else "check with the list's owner";
 * - `nothing`: no (valid) cookie and no link, or the signup is gone.
 */
export type JoinedView = JoinedWaitlist &
  ({ kind: "own"; signup: JoinedSignup; token?: string } | { kind: "check_inbox" } | { kind: "already_on_list"; emailed: boolean } | { kind: "nothing" });

/** The view of /join/{id}/joined from its `t` and the form's cookie; undefined for an unknown waitlist or a link that does not work (forged, expired, another list's, erased). */
export async function joinedViewOf(pathId: string, token: string | undefined, cookie: string | undefined): Promise<JoinedView | undefined> {
  const waitlist = await waitlistOfPath(pathId);
  if (!waitlist) return undefined;
  const base = { waitlist, settings: await joinSettingsOf(waitlist.id) };
  if (token !== undefined) {
    const reading = await readLinkToken(token, "joined");
    const signup = reading.ok && reading.claims.waitlistId === waitlist.id ? await joinedSignup(waitlist.id, reading.claims.signupId) : undefined;
    return signup && { ...base, kind: "own", signup, token };
  }
  const seal = await joinedCookieOf(waitlist.id, cookie);
  if (!seal) return { ...base, kind: "nothing" };
  if (base.settings.verification) return { ...base, kind: "check_inbox" };
  if ("existing" in seal) return { ...base, kind: "already_on_list", emailed: env().SMTP_URL !== undefined };
  const signup = await joinedSignup(waitlist.id, seal.signupId);
  return signup ? { ...base, kind: "own", signup } : { ...base, kind: "nothing" };
}
