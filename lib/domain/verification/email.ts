import "server-only";
import { getDb, type AppDatabase } from "@/db/client";
import type { Waitlist } from "@/db/schema";
import { singleLine } from "@/lib/core/single-line-text";
import type { RenderedEmail } from "../emails/invitation";
import type { SignupRow } from "../signups/row";
import { CONFIRM_LINK_LIFETIME_MS, JOINED_LINK_LIFETIME_MS, PERSON_LINK_LIFETIME_MS, signLinkToken } from "./link-token";

// The confirmation email of a signup that joined a waitlist with verification on: queued when its
// `signup.created` event is fanned out (lib/domain/deliveries/fan-out.ts) and again on a resend
// (./resend.ts), each time with a fresh link good for 7 days, and a link to the person's own page.

/** The page a confirmation link opens; `token` is a signed "confirm" token (./link-token.ts). */
export function confirmPath(waitlistId: string, token: string): string {
  return `/join/${waitlistId}/confirm?token=${encodeURIComponent(token)}`;
}

/**
 * The person's own page (their place in line, referral link, "send the email again"), by a signed
 * "joined" token good for 30 days. Only emails carry it: it reaches nobody but the address's owner.
 */
export async function joinedPagePath(waitlistId: string, signupId: number, now = Date.now(), db: AppDatabase = getDb()): Promise<string> {
  return `/join/${waitlistId}/joined?t=${encodeURIComponent(await joinedPageToken(waitlistId, signupId, now, db))}`;
}

/** The signed "joined" token of that page. */
export async function joinedPageToken(waitlistId: string, signupId: number, now = Date.now(), db: AppDatabase = getDb()): Promise<string> {
  return await signLinkToken({ purpose: "joined", waitlistId, signupId, expiresAt: new Date(now + JOINED_LINK_LIFETIME_MS) }, db);
}

/**
 * The person's own page (/join/{id}/me: place, referral link, answers, their data, leaving), by a
 * signed "person" token good for 30 days, named by every email the person gets.
 */
export async function personPagePath(waitlistId: string, signupId: number, now = Date.now(), db: AppDatabase = getDb()): Promise<string> {
  return `/join/${waitlistId}/me?t=${encodeURIComponent(await personPageToken(waitlistId, signupId, now, db))}`;
}

/** The signed "person" token of that page. */
export async function personPageToken(waitlistId: string, signupId: number, now = Date.now(), db: AppDatabase = getDb()): Promise<string> {
  return await signLinkToken({ purpose: "person", waitlistId, signupId, expiresAt: new Date(now + PERSON_LINK_LIFETIME_MS) }, db);
}

/** The closing lines of every email to a person: the link to their own page. */
export async function personPageFooter(waitlistId: string, signupId: number, publicUrl: string, now = Date.now(), db: AppDatabase = getDb()): Promise<string> {
  return personPageFooterOf(`${publicUrl}${await personPagePath(waitlistId, signupId, now, db)}`);
}

/** Those lines for a page's URL (a test email's has a sample one). */
export function personPageFooterOf(pageUrl: string): string {
  return `\nYour own page (change your answers, download your data or leave the list; the link works for 30 days):\n\n${pageUrl}\n`;
}

export async function confirmationEmail(waitlist: Pick<Waitlist, "id" | "name">, signup: Pick<SignupRow, "id" | "email">, publicUrl: string, now = Date.now(), db: AppDatabase = getDb()): Promise<RenderedEmail> {
  const token = await signLinkToken({ purpose: "confirm", waitlistId: waitlist.id, signupId: signup.id, expiresAt: new Date(now + CONFIRM_LINK_LIFETIME_MS) }, db);
  const link = `${publicUrl}${confirmPath(waitlist.id, token)}`;
  const page = `${publicUrl}${await joinedPagePath(waitlist.id, signup.id, now, db)}`;
  return {
    to: signup.email,
    subject: `Confirm your place on the ${singleLine(waitlist.name)} waitlist`,
    text: `Hello,\n\nPlease confirm your address to keep your place on the ${singleLine(waitlist.name)} waitlist:\n\n${link}\n\nThe link works for 7 days. If you did not join, ignore this email: nothing else will be sent.\n\nYour place in line and your referral link are on your page (the link works for 30 days):\n\n${page}\n${await personPageFooter(waitlist.id, signup.id, publicUrl, now, db)}`,
  };
}
