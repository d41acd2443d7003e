import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { env } from "@/lib/core/env";
import { AppError } from "@/lib/core/errors";
import { CLI_ACTOR } from "@/lib/domain/audit/log";
import { getInvitationEmail, invitationEmailSchema, previewInvitation, updateInvitationEmail, type InvitationEmailSettings } from "@/lib/domain/emails/invitation";
import { getWaitlistOrThrow } from "@/lib/domain/waitlists/queries";
import { emit, parseOptions, type JsonOption } from "../output";
import { describeInviteLinks } from "../invite-options";

const PLACEHOLDERS = "{{email}}, {{waitlist.name}}, {{waitlist.website}}, {{input.<label>}}, {{invite.url}}, {{person.url}}";

function readBody(path: string | undefined, option = "--body-file"): string | undefined {
  if (path === undefined) return undefined;
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new AppError("invalid_parameter", `invalid ${option}: ${(error as Error).message}`, option);
  }
}

function settingsJson(settings: InvitationEmailSettings) {
  return { waitlist_id: settings.waitlistId, enabled: settings.enabled, subject: settings.subject, body: settings.body, invite_url: settings.inviteUrl, invite_expiry_days: settings.inviteExpiryDays, on_invite_expiry: settings.onInviteExpiry, reminder_days_before: settings.reminderDaysBefore, reminder_subject: settings.reminderSubject, reminder_body: settings.reminderBody, smtp_configured: env().SMTP_URL !== undefined };
}

function settingsText(settings: InvitationEmailSettings): string {
  const sending = env().SMTP_URL === undefined ? " (SMTP_URL is not set: emails are rendered and kept as not sent)" : "";
  return [`Invitation emails of waitlist ${settings.waitlistId}: ${settings.enabled ? "on" : "off"}${settings.enabled ? sending : ""}.`, describeInviteLinks(settings), `Subject: ${settings.subject}`, "", settings.body, `Reminder subject: ${settings.reminderSubject}`, "", settings.reminderBody].join("\n");
}

export function registerEmailCommands(program: Command): void {
  const emails = program.command("emails").description(`The invitation email of each waitlist: sent on every signup.invited while on. Placeholders: ${PLACEHOLDERS}.`);

  emails
    .command("show")
    .description("Show whether a waitlist sends invitation emails, and its template.")
    .argument("<waitlist>", "the waitlist's id")
    .option("--json", "print one JSON object to stdout")
    .action(async (waitlist: string, options: JsonOption) => {
      const settings = await getInvitationEmail((await getWaitlistOrThrow(waitlist)).id);
      emit(options, settingsJson(settings), () => settingsText(settings));
    });

  emails
    .command("set")
    .description("Turn a waitlist's invitation emails on or off, or change the template. Audited (actor cli).")
    .argument("<waitlist>", "the waitlist's id")
    .option("--on", "send an invitation email on every signup.invited")
    .option("--off", "send none")
    .option("--subject <text>", `the subject line (placeholders: ${PLACEHOLDERS})`)
    .option("--body-file <path>", "a plain-text file with the body (same placeholders)")
    .option("--reminder-subject <text>", "the reminder's subject line, sent before an invitation expires (waitlists update --remind-days; same placeholders)")
    .option("--reminder-body-file <path>", "a plain-text file with the reminder's body (same placeholders)")
    .option("--json", "print one JSON object to stdout")
    .action(async (waitlist: string, options: { on?: boolean; off?: boolean; subject?: string; bodyFile?: string; reminderSubject?: string; reminderBodyFile?: string } & JsonOption) => {
      if (options.on && options.off) throw new AppError("invalid_parameter", "--on and --off cannot be combined", "--on");
      const fields = {
        enabled: options.on ? true : options.off ? false : undefined,
        subject: options.subject,
        body: readBody(options.bodyFile),
        reminderSubject: options.reminderSubject,
        reminderBody: readBody(options.reminderBodyFile, "--reminder-body-file"),
      };
      const optionOf: Record<string, string> = { body: "--body-file", enabled: "--on", reminderSubject: "--reminder-subject", reminderBody: "--reminder-body-file" };
      const input = parseOptions(invitationEmailSchema, fields, (key) => optionOf[key] ?? `--${key}`);
      const settings = await updateInvitationEmail(CLI_ACTOR, waitlist, input);
      emit(options, settingsJson(settings), () => settingsText(settings));
    });

  emails
    .command("preview")
    .description("Render the invitation email a signup would get, with the saved template or with --subject and --body-file (nothing is saved or sent).")
    .argument("<waitlist>", "the waitlist's id")
    .requiredOption("--signup <id>", "the signup's id (as `fields=id` shows it)")
    .option("--subject <text>", "a subject to try instead of the saved one")
    .option("--body-file <path>", "a body to try instead of the saved one")
    .option("--json", "print one JSON object to stdout")
    .action(async (waitlist: string, options: { signup: string; subject?: string; bodyFile?: string } & JsonOption) => {
      const draft = parseOptions(invitationEmailSchema, { subject: options.subject, body: readBody(options.bodyFile) }, (key) => (key === "body" ? "--body-file" : `--${key}`));
      const email = await previewInvitation(waitlist, options.signup.trim(), draft);
      emit(options, email, () => [`To: ${email.to}`, `Subject: ${email.subject}`, "", email.text].join("\n"));
    });
}
