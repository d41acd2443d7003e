import { AppError } from "@/lib/core/errors";
import { invitationEmailSchema, MAX_INVITE_EXPIRY_DAYS, type InvitationEmailInput, type InvitationEmailSettings } from "@/lib/domain/emails/invitation";
import { parseOptions } from "./output";

// `waitlists update --invite-url <url> --invite-expiry <days>`: where the invitation email's
// {{invite.url}} leads and how long its token is good, checked before any setting is written.

export interface InviteOptions {
  inviteUrl?: string;
  inviteExpiry?: string;
}

const inviteSchema = invitationEmailSchema.pick({ inviteUrl: true, inviteExpiryDays: true });

/** The invite settings to change ("" for --invite-url removes it); empty when neither option was given. */
export function inviteChangeOf(options: InviteOptions): Pick<InvitationEmailInput, "inviteUrl" | "inviteExpiryDays"> {
  const days = options.inviteExpiry?.trim();
  if (days !== undefined && !/^[0-9]{1,6}$/.test(days)) {
    throw new AppError("invalid_parameter", `invalid --invite-expiry: must be a whole number of days from 1 to ${MAX_INVITE_EXPIRY_DAYS} (got ${JSON.stringify(options.inviteExpiry)})`, "--invite-expiry");
  }
  const url = options.inviteUrl?.trim();
  const input = { inviteUrl: url === undefined ? undefined : url === "" ? null : url, inviteExpiryDays: days === undefined ? undefined : Number(days) };
  const parsed = parseOptions(inviteSchema, input, (key) => (key === "inviteUrl" ? "--invite-url" : "--invite-expiry"));
  return Object.fromEntries(Object.entries(parsed).filter(([, value]) => value !== undefined));
}

/** "Invite links: https://app.example/signup?invite=…, good for 14 days." */
export function describeInviteLinks(settings: Pick<InvitationEmailSettings, "inviteUrl" | "inviteExpiryDays">): string {
  const where = settings.inviteUrl === null ? "no sign-up URL yet ({{invite.url}} is empty; set --invite-url)" : `${settings.inviteUrl} with ?invite=<token>`;
  return `Invite links: ${where}, good for ${settings.inviteExpiryDays} day${settings.inviteExpiryDays === 1 ? "" : "s"} after the invitation.`;
}
