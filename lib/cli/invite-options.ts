import { AppError } from "@/lib/core/errors";
import { days, invitationEmailSchema, MAX_INVITE_EXPIRY_DAYS, type InvitationEmailInput, type InvitationEmailSettings } from "@/lib/domain/emails/invitation";
import { parseOptions } from "./output";

// `waitlists update --invite-url <url> --invite-expiry <days>`: where the invitation email's
// {{invite.url}} leads and how long its token is good, checked before any setting is written.

export interface InviteOptions {
  inviteUrl?: string;
  inviteExpiry?: string;
  onInviteExpiry?: string;
  remindDays?: string;
}

const inviteSchema = invitationEmailSchema.pick({ inviteUrl: true, inviteExpiryDays: true, onInviteExpiry: true, reminderDaysBefore: true });
const OPTION_OF: Record<string, string> = { inviteUrl: "--invite-url", inviteExpiryDays: "--invite-expiry", onInviteExpiry: "--on-invite-expiry", reminderDaysBefore: "--remind-days" };

/** A whole number of days of an option, or a clear refusal naming it. */
function wholeDays(text: string | undefined, option: string, max: number): number | undefined {
  const days = text?.trim();
  if (days !== undefined && !/^[0-9]{1,6}$/.test(days)) throw new AppError("invalid_parameter", `invalid ${option}: must be a whole number of days from 1 to ${max} (got ${JSON.stringify(text)})`, option);
  return days === undefined ? undefined : Number(days);
}

/** The invite settings to change ("" for --invite-url removes it, "off" for --remind-days); empty when no option was given. */
export function inviteChangeOf(options: InviteOptions): Pick<InvitationEmailInput, "inviteUrl" | "inviteExpiryDays" | "onInviteExpiry" | "reminderDaysBefore"> {
  const url = options.inviteUrl?.trim();
  const remindOff = options.remindDays?.trim().toLowerCase() === "off";
  const input = {
    inviteUrl: url === undefined ? undefined : url === "" ? null : url,
    inviteExpiryDays: wholeDays(options.inviteExpiry, "--invite-expiry", MAX_INVITE_EXPIRY_DAYS),
    onInviteExpiry: options.onInviteExpiry?.trim(),
    reminderDaysBefore: remindOff ? null : wholeDays(options.remindDays, "--remind-days", MAX_INVITE_EXPIRY_DAYS - 1),
  };
  const parsed = parseOptions(inviteSchema, input, (key) => OPTION_OF[key] ?? `--${key}`);
  return Object.fromEntries(Object.entries(parsed).filter(([, value]) => value !== undefined));
}

/** "Invite links: https://app.example/signup?invite=…, good for 14 days. Expired: back to waiting …; reminder 3 days before." */
export function describeInviteLinks(settings: Pick<InvitationEmailSettings, "inviteUrl" | "inviteExpiryDays" | "onInviteExpiry" | "reminderDaysBefore">): string {
  const where = settings.inviteUrl === null ? "no sign-up URL yet ({{invite.url}} is empty; set --invite-url)" : `${settings.inviteUrl} with ?invite=<token>`;
  const expiry = settings.onInviteExpiry === "requeue" ? "back to waiting at the front of the line" : "rejected";
  const reminder = settings.reminderDaysBefore === null ? "no reminder" : `a reminder email ${days(settings.reminderDaysBefore)} before`;
  return `Invite links: ${where}, good for ${days(settings.inviteExpiryDays)} after the invitation. Not redeemed by then: ${expiry}; ${reminder}.`;
}
