import Link from "next/link";
import { formatCount } from "@/components/format";
import { linkClass } from "@/components/styles";
import { env } from "@/lib/core/env";
import { getInvitationEmail } from "@/lib/domain/emails/invitation";
import { STATUS_ACTIONS, type StatusAction } from "@/lib/domain/signups/status";
import { SendTestForm } from "../../email/send-test-form";

// What a status action emails the signups it changes. Of the status events only `signup.invited`
// sends one (the outbox's fan-out, lib/domain/deliveries/fan-out.ts): the invitation email, when the
// list sends them and a mail server is configured. Reminders, milestones and address confirmations
// are sent by other events, never by a status action.

const noteClass = "rounded-md border border-zinc-300 bg-zinc-50 px-3 py-2 dark:border-zinc-700 dark:bg-zinc-900";

/** Whether a status action sends an email to each signup it changes. */
function actionSendsEmail(action: StatusAction): boolean {
  return STATUS_ACTIONS[action].event === "signup.invited";
}

/** How many emails `count` changes send, or none and why (emails off, or no mail server; an action that sends none). */
export async function ActionEmailsNote({ waitlistId, action, count }: { waitlistId: string; action: StatusAction; count: number }) {
  if (!actionSendsEmail(action)) {
    return (
      <p data-testid="emails-note" className={noteClass}>
        This sends no email: of the status actions only an invitation is emailed to the signup.
      </p>
    );
  }
  const { enabled } = await getInvitationEmail(waitlistId);
  const configured = env().SMTP_URL !== undefined;
  const editor = (
    <Link href={`/waitlists/${waitlistId}/email`} className={`${linkClass} underline`}>
      Invitation email
    </Link>
  );
  return (
    <p data-testid="emails-note" className={noteClass}>
      {enabled && configured ? (
        <>
          This sends <strong>{formatCount(count)}</strong> invitation email{count === 1 ? "" : "s"}, one to each signup invited, in the template of {editor}.
        </>
      ) : enabled ? (
        <>No invitation email will be sent: email is not configured (SMTP_URL), so each is kept in the delivery log as not sent.</>
      ) : (
        <>No invitation email will be sent: invitation emails are off for this list (turn them on under {editor}).</>
      )}
    </p>
  );
}

/** "Send a test to me" of the email an action sends, when it sends one: the saved template with sample answers, to the address typed. */
export async function ActionEmailTest({ waitlistId, action }: { waitlistId: string; action: StatusAction }) {
  if (!actionSendsEmail(action) || env().SMTP_URL === undefined || !(await getInvitationEmail(waitlistId)).enabled) return null;
  return (
    <SendTestForm
      action={`/waitlists/${waitlistId}/email/send-test`}
      hint="The invitation email these signups will get, in its saved template and the list's brand, with sample answers; its links work nowhere (no invite token is made). Sent now through the mail server to the address you type, and recorded in the audit log."
    />
  );
}
