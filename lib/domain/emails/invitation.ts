import "server-only";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { getDb, type AppDatabase } from "@/db/client";
import { invitationEmails, type Waitlist } from "@/db/schema";
import { AppError } from "@/lib/core/errors";
import { singleLine } from "@/lib/core/single-line-text";
import { writeTransaction } from "@/lib/store/transaction";
import { recordAudit, type AuditActor } from "../audit/log";
import { signupPublicId } from "../signups/id";
import { getSignup } from "../signups/queries";
import type { SignupRow } from "../signups/row";
import { getWaitlistOrThrow, httpUrlSchema } from "../waitlists/queries";
import { normalizeWebsite } from "@/lib/core/website";
import { inviteLink } from "../invitations/link";

// A waitlist's invitation email: off until turned on; then each `signup.invited` event queues one email
// to the signup's address (lib/domain/deliveries/fan-out.ts), rendered from this template when the
// event is fanned out. Placeholders: {{email}}, {{waitlist.name}}, {{waitlist.website}},
// {{input.<label>}} (the signup's custom input with that label; empty when it has none), and the
// invitation's own links: {{invite.url}} (the product's sign-up URL with a signed invite token,
// lib/domain/invitations/token.ts; empty while no URL is set) and {{person.url}} (the person's page).

export const DEFAULT_INVITATION_SUBJECT = "You're invited to {{waitlist.name}}";
export const DEFAULT_INVITATION_BODY = "Hello,\n\nYour spot on the {{waitlist.name}} waitlist has come up: you're invited.\n\n{{waitlist.website}}\n";

/** The reminder email's template until someone edits it (migration 0022's column defaults hold the same text). */
export const DEFAULT_REMINDER_SUBJECT = "Your invitation to {{waitlist.name}} expires soon";
export const DEFAULT_REMINDER_BODY = "Hello,\n\nYou were invited to {{waitlist.name}} and have not accepted yet: your invitation expires soon.\n\n{{invite.url}}\n";
/** What an invitation not redeemed in time becomes: waiting again at the front of the line, or rejected. */
export const INVITE_EXPIRY_OUTCOMES = ["requeue", "reject"] as const;
export type InviteExpiryOutcome = (typeof INVITE_EXPIRY_OUTCOMES)[number];

export const MAX_SUBJECT = 200;
export const MAX_BODY = 20_000;
/** How many days an invite link is good for, unless the waitlist says otherwise (issue 32). */
export const DEFAULT_INVITE_EXPIRY_DAYS = 14;
export const MAX_INVITE_EXPIRY_DAYS = 365;
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
/** The links only an invitation email has. */
const LINK_PLACEHOLDERS = ["invite.url", "person.url"] as const;

/** The placeholders a template may use; anything else between {{ }} is refused when saved. */
function isKnownPlaceholder(name: string, extra: readonly string[]): boolean {
  return name === "email" || name === "waitlist.name" || name === "waitlist.website" || /^input\..+$/.test(name) || extra.includes(name);
}

/** A template's text of at most `max` characters, refused with a message when it has an unknown placeholder (milestones' messages use it too, without `extra`). */
export const templateText = (max: number, extra: readonly string[] = []) =>
  z
    .string()
    .max(max)
    .superRefine((text, context) => {
      const known = ["{{email}}", "{{waitlist.name}}", "{{waitlist.website}}", "{{input.<label>}}", ...extra.map((name) => `{{${name}}}`)].join(", ");
      for (const [, name] of text.matchAll(PLACEHOLDER)) {
        if (!isKnownPlaceholder(name!, extra)) context.addIssue({ code: "custom", message: `has an unknown placeholder {{${name}}} (known: ${known})` });
      }
    });

export const invitationEmailSchema = z.object({
  enabled: z.boolean().optional(),
  subject: templateText(MAX_SUBJECT, LINK_PLACEHOLDERS)
    .refine((text) => text.trim() !== "" && !/[\r\n]/.test(text), "must be one line of text")
    .optional(),
  body: templateText(MAX_BODY, LINK_PLACEHOLDERS)
    .refine((text) => text.trim() !== "", "must not be empty")
    .optional(),
  /** The product's sign-up page, which {{invite.url}} opens with `?invite=<token>`; null removes it. */
  inviteUrl: httpUrlSchema.transform(normalizeWebsite).nullable().optional().describe(httpUrlSchema.description!),
  inviteExpiryDays: z
    .number()
    .int("must be a whole number of days")
    .min(1, "must be at least 1 day")
    .max(MAX_INVITE_EXPIRY_DAYS, `must be at most ${MAX_INVITE_EXPIRY_DAYS} days`)
    .optional(),
  onInviteExpiry: z.enum(INVITE_EXPIRY_OUTCOMES, { error: "must be requeue (back to waiting, at the front of the line) or reject" }).optional(),
  /** The reminder email this many days before the invitation expires (fewer than the invite's days); null: none. */
  reminderDaysBefore: z
    .number()
    .int("must be a whole number of days")
    .min(1, "must be at least 1 day")
    .max(MAX_INVITE_EXPIRY_DAYS - 1, `must be at most ${MAX_INVITE_EXPIRY_DAYS - 1} days`)
    .nullable()
    .optional(),
  reminderSubject: templateText(MAX_SUBJECT, LINK_PLACEHOLDERS)
    .refine((text) => text.trim() !== "" && !/[\r\n]/.test(text), "must be one line of text")
    .optional(),
  reminderBody: templateText(MAX_BODY, LINK_PLACEHOLDERS)
    .refine((text) => text.trim() !== "", "must not be empty")
    .optional(),
});
export type InvitationEmailInput = z.input<typeof invitationEmailSchema>;

export interface InvitationEmailSettings {
  waitlistId: string;
  enabled: boolean;
  subject: string;
  body: string;
  inviteUrl: string | null;
  inviteExpiryDays: number;
  onInviteExpiry: InviteExpiryOutcome;
  reminderDaysBefore: number | null;
  reminderSubject: string;
  reminderBody: string;
}

/** A waitlist's settings (the defaults, turned off, until someone saves them). */
export async function getInvitationEmail(waitlistId: string, db: AppDatabase = getDb()): Promise<InvitationEmailSettings> {
  const [row] = await db.select().from(invitationEmails).where(eq(invitationEmails.waitlistId, waitlistId.toLowerCase())).all();
  return row
    ? {
        waitlistId: row.waitlistId,
        enabled: row.enabled,
        subject: row.subject,
        body: row.body,
        inviteUrl: row.inviteUrl,
        inviteExpiryDays: row.inviteExpiryDays,
        onInviteExpiry: row.onInviteExpiry,
        reminderDaysBefore: row.reminderDaysBefore,
        reminderSubject: row.reminderSubject,
        reminderBody: row.reminderBody,
      }
    : {
        waitlistId: waitlistId.toLowerCase(),
        enabled: false,
        subject: DEFAULT_INVITATION_SUBJECT,
        body: DEFAULT_INVITATION_BODY,
        inviteUrl: null,
        inviteExpiryDays: DEFAULT_INVITE_EXPIRY_DAYS,
        onInviteExpiry: "requeue",
        reminderDaysBefore: null,
        reminderSubject: DEFAULT_REMINDER_SUBJECT,
        reminderBody: DEFAULT_REMINDER_BODY,
      };
}

/** Turns invitation emails on or off, edits the template and the invite links' URL and lifetime; audited when anything changes. */
export async function updateInvitationEmail(actor: AuditActor, waitlistId: string, input: InvitationEmailInput, db: AppDatabase = getDb()): Promise<InvitationEmailSettings> {
  const fields = invitationEmailSchema.parse(input);
  return await writeTransaction(db, async () => {
    const waitlist = await getWaitlistOrThrow(waitlistId, db);
    const before = await getInvitationEmail(waitlist.id, db);
    const after = { ...before, ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) } as InvitationEmailSettings;
    const changes = [
      after.enabled !== before.enabled ? `invitation emails ${after.enabled ? "on" : "off"}` : undefined,
      after.subject !== before.subject ? "subject changed" : undefined,
      after.body !== before.body ? "body changed" : undefined,
      after.inviteUrl !== before.inviteUrl ? (after.inviteUrl === null ? "invite URL removed" : `invite URL ${after.inviteUrl}`) : undefined,
      after.inviteExpiryDays !== before.inviteExpiryDays ? `invite links good for ${after.inviteExpiryDays} day${after.inviteExpiryDays === 1 ? "" : "s"}` : undefined,
      after.onInviteExpiry !== before.onInviteExpiry ? `an expired invitation is ${after.onInviteExpiry === "requeue" ? "requeued at the front of the line" : "rejected"}` : undefined,
      after.reminderDaysBefore !== before.reminderDaysBefore ? (after.reminderDaysBefore === null ? "no reminder" : `reminder ${days(after.reminderDaysBefore)} before expiry`) : undefined,
      after.reminderSubject !== before.reminderSubject ? "reminder subject changed" : undefined,
      after.reminderBody !== before.reminderBody ? "reminder body changed" : undefined,
    ].filter((change) => change !== undefined);
    if (changes.length === 0) return before;
    if (after.reminderDaysBefore !== null && after.reminderDaysBefore >= after.inviteExpiryDays) {
      throw new AppError("invalid_parameter", `The reminder (${days(after.reminderDaysBefore)} before expiry) must come after the invitation: fewer days than the invite links' ${after.inviteExpiryDays}.`, "reminderDaysBefore");
    }
    const { waitlistId: _id, ...settings } = after;
    const row = { waitlistId: waitlist.id, ...settings, updatedAt: new Date() };
    await db.insert(invitationEmails).values(row).onConflictDoUpdate({ target: invitationEmails.waitlistId, set: row }).run();
    await recordAudit({ actor, action: "waitlist.invitation_email", target: waitlist.id, summary: changes.join("; ") }, db);
    return after;
  });
}

/** "3 days", "1 day". */
export function days(count: number): string {
  return `${count} day${count === 1 ? "" : "s"}`;
}

export interface RenderedEmail {
  to: string;
  subject: string;
  text: string;
}

/** The value of `input.<label>` among a signup's custom inputs ({label, value} objects), or "". */
function inputValue(signup: SignupRow, label: string): string {
  const input = signup.customInputs.find((each) => each.label === label);
  const value = input?.value;
  return value === undefined || value === null ? "" : typeof value === "string" ? value : JSON.stringify(value);
}

/** The invitation's own links: {{invite.url}} and {{person.url}} (absent: empty). */
export interface InvitationLinks {
  invite?: string;
  person?: string;
}

/**
 * Fills a template's placeholders for one signup of one waitlist. Each inserts single-line text
 * (lib/core/single-line-text.ts): joins and imports refuse line breaks and controls, and this keeps
 * data stored before that rule from forging lines ("Bcc: …") or reordering text in the email.
 */
export function renderTemplate(template: string, waitlist: Pick<Waitlist, "name" | "website">, signup: SignupRow, links?: InvitationLinks): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    if (links && name === "invite.url") return singleLine(links.invite ?? "");
    if (links && name === "person.url") return singleLine(links.person ?? "");
    if (name === "email") return singleLine(signup.email);
    if (name === "waitlist.name") return singleLine(waitlist.name);
    if (name === "waitlist.website") return singleLine(waitlist.website);
    if (name.startsWith("input.")) return singleLine(inputValue(signup, name.slice("input.".length)));
    return whole;
  });
}

/** The email of one signup; `footer` (the link to the person's own page, lib/domain/verification/email.ts) closes the text of a sent one. */
export function renderInvitation(settings: Pick<InvitationEmailSettings, "subject" | "body">, waitlist: Pick<Waitlist, "name" | "website">, signup: SignupRow, footer = "", links: InvitationLinks = {}): RenderedEmail {
  const body = renderTemplate(settings.body, waitlist, signup, links);
  return { to: signup.email, subject: renderTemplate(settings.subject, waitlist, signup, links).replace(/[\r\n]+/g, " "), text: footer ? `${body.trimEnd()}\n${footer}` : body };
}

/** What a preview shows for the token, which only the invitation itself mints. */
export const PREVIEW_INVITE_TOKEN = "TOKEN-MADE-WHEN-INVITED";

/**
 * The email a signup would get, with the saved template or with `draft` (the dashboard's editor
 * previews before saving): refused like a save when the draft has an unknown placeholder.
 */
export async function previewInvitation(waitlistId: string, signupPublic: string, draft: InvitationEmailInput = {}, db: AppDatabase = getDb()): Promise<RenderedEmail> {
  const fields = invitationEmailSchema.parse(draft);
  const waitlist = await getWaitlistOrThrow(waitlistId, db);
  const signupId = Number(signupPublic);
  const signup = Number.isSafeInteger(signupId) ? await getSignup(waitlist.id, signupId, db) : undefined;
  if (!signup || signupPublicId(signup.id) !== signupPublic) throw new AppError("not_found", `Waitlist ${waitlist.id} has no signup ${signupPublic}.`);
  const saved = await getInvitationEmail(waitlist.id, db);
  const inviteUrl = fields.inviteUrl === undefined ? saved.inviteUrl : fields.inviteUrl;
  const links = { invite: inviteUrl === null ? undefined : inviteLink(inviteUrl, PREVIEW_INVITE_TOKEN), person: `/join/${waitlist.id}/me?t=…` };
  return renderInvitation({ subject: fields.subject ?? saved.subject, body: fields.body ?? saved.body }, waitlist, signup, "", links);
}
