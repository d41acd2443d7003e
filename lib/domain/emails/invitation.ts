import "server-only";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { getDb, type AppDatabase } from "@/db/client";
import { invitationEmails, type Waitlist } from "@/db/schema";
import { AppError } from "@/lib/core/errors";
import { singleLine } from "@/lib/core/single-line-text";
import { recordAudit, type AuditActor } from "../audit/log";
import { signupPublicId } from "../signups/id";
import { getSignup } from "../signups/queries";
import type { SignupRow } from "../signups/row";
import { getWaitlistOrThrow } from "../waitlists/queries";

// A waitlist's invitation email: off until turned on; then each `signup.invited` event queues one email
// to the signup's address (lib/domain/deliveries/fan-out.ts), rendered from this template when the
// event is fanned out. Placeholders: {{email}}, {{waitlist.name}}, {{waitlist.website}} and
// {{input.<label>}} (the signup's custom input with that label; empty when it has none).

export const DEFAULT_INVITATION_SUBJECT = "You're invited to {{waitlist.name}}";
export const DEFAULT_INVITATION_BODY = "Hello,\n\nYour spot on the {{waitlist.name}} waitlist has come up: you're invited.\n\n{{waitlist.website}}\n";

export const MAX_SUBJECT = 200;
export const MAX_BODY = 20_000;
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The placeholders a template may use; anything else between {{ }} is refused when saved. */
function isKnownPlaceholder(name: string): boolean {
  return name === "email" || name === "waitlist.name" || name === "waitlist.website" || /^input\..+$/.test(name);
}

/** A template's text of at most `max` characters, refused with a message when it has an unknown placeholder (milestones' messages use it too). */
export const templateText = (max: number) =>
  z
    .string()
    .max(max)
    .superRefine((text, context) => {
      for (const [, name] of text.matchAll(PLACEHOLDER)) {
        if (!isKnownPlaceholder(name!)) context.addIssue({ code: "custom", message: `has an unknown placeholder {{${name}}} (known: {{email}}, {{waitlist.name}}, {{waitlist.website}}, {{input.<label>}})` });
      }
    });

export const invitationEmailSchema = z.object({
  enabled: z.boolean().optional(),
  subject: templateText(MAX_SUBJECT)
    .refine((text) => text.trim() !== "" && !/[\r\n]/.test(text), "must be one line of text")
    .optional(),
  body: templateText(MAX_BODY)
    .refine((text) => text.trim() !== "", "must not be empty")
    .optional(),
});
export type InvitationEmailInput = z.input<typeof invitationEmailSchema>;

export interface InvitationEmailSettings {
  waitlistId: string;
  enabled: boolean;
  subject: string;
  body: string;
}

/** A waitlist's settings (the defaults, turned off, until someone saves them). */
export function getInvitationEmail(waitlistId: string, db: AppDatabase = getDb()): InvitationEmailSettings {
  const [row] = db.select().from(invitationEmails).where(eq(invitationEmails.waitlistId, waitlistId.toLowerCase())).all();
  return row
    ? { waitlistId: row.waitlistId, enabled: row.enabled, subject: row.subject, body: row.body }
    : { waitlistId: waitlistId.toLowerCase(), enabled: false, subject: DEFAULT_INVITATION_SUBJECT, body: DEFAULT_INVITATION_BODY };
}

/** Turns invitation emails on or off and edits the template; audited when anything changes. */
export function updateInvitationEmail(actor: AuditActor, waitlistId: string, input: InvitationEmailInput, db: AppDatabase = getDb()): InvitationEmailSettings {
  const fields = invitationEmailSchema.parse(input);
  return db.$client
    .transaction(() => {
      const waitlist = getWaitlistOrThrow(waitlistId, db);
      const before = getInvitationEmail(waitlist.id, db);
      const after = { ...before, ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) } as InvitationEmailSettings;
      const changes = [
        after.enabled !== before.enabled ? `invitation emails ${after.enabled ? "on" : "off"}` : undefined,
        after.subject !== before.subject ? "subject changed" : undefined,
        after.body !== before.body ? "body changed" : undefined,
      ].filter((change) => change !== undefined);
      if (changes.length === 0) return before;
      const row = { waitlistId: waitlist.id, enabled: after.enabled, subject: after.subject, body: after.body, updatedAt: new Date() };
      db.insert(invitationEmails).values(row).onConflictDoUpdate({ target: invitationEmails.waitlistId, set: row }).run();
      recordAudit({ actor, action: "waitlist.invitation_email", target: waitlist.id, summary: changes.join("; ") }, db);
      return after;
    })
    .immediate();
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

/**
 * Fills a template's placeholders for one signup of one waitlist. Each inserts single-line text
 * (lib/core/single-line-text.ts): joins and imports refuse line breaks and controls, and this keeps
 * data stored before that rule from forging lines ("Bcc: …") or reordering text in the email.
 */
export function renderTemplate(template: string, waitlist: Pick<Waitlist, "name" | "website">, signup: SignupRow): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    if (name === "email") return singleLine(signup.email);
    if (name === "waitlist.name") return singleLine(waitlist.name);
    if (name === "waitlist.website") return singleLine(waitlist.website);
    if (name.startsWith("input.")) return singleLine(inputValue(signup, name.slice("input.".length)));
    return whole;
  });
}

/** The email of one signup; `footer` (the link to the person's own page, lib/domain/verification/email.ts) closes the text of a sent one. */
export function renderInvitation(settings: Pick<InvitationEmailSettings, "subject" | "body">, waitlist: Pick<Waitlist, "name" | "website">, signup: SignupRow, footer = ""): RenderedEmail {
  return { to: signup.email, subject: renderTemplate(settings.subject, waitlist, signup).replace(/[\r\n]+/g, " "), text: footer ? `${renderTemplate(settings.body, waitlist, signup).trimEnd()}\n${footer}` : renderTemplate(settings.body, waitlist, signup) };
}

/**
 * The email a signup would get, with the saved template or with `draft` (the dashboard's editor
 * previews before saving): refused like a save when the draft has an unknown placeholder.
 */
export function previewInvitation(waitlistId: string, signupPublic: string, draft: InvitationEmailInput = {}, db: AppDatabase = getDb()): RenderedEmail {
  const fields = invitationEmailSchema.parse(draft);
  const waitlist = getWaitlistOrThrow(waitlistId, db);
  const signupId = Number(signupPublic);
  const signup = Number.isSafeInteger(signupId) ? getSignup(waitlist.id, signupId, db) : undefined;
  if (!signup || signupPublicId(signup.id) !== signupPublic) throw new AppError("not_found", `Waitlist ${waitlist.id} has no signup ${signupPublic}.`);
  const saved = getInvitationEmail(waitlist.id, db);
  return renderInvitation({ subject: fields.subject ?? saved.subject, body: fields.body ?? saved.body }, waitlist, signup);
}
