import Link from "next/link";
import { formatCount } from "@/components/format";
import { linkClass } from "@/components/styles";
import { env } from "@/lib/core/env";
import { getInvitationEmail } from "@/lib/domain/emails/invitation";

/** What inviting `count` signups sends: that many invitation emails, or none and why (emails off, or no mail server). */
export function InvitationEmailsNote({ waitlistId, count }: { waitlistId: string; count: number }) {
  const { enabled } = getInvitationEmail(waitlistId);
  const configured = env().SMTP_URL !== undefined;
  const editor = (
    <Link href={`/waitlists/${waitlistId}/email`} className={`${linkClass} underline`}>
      Invitation email
    </Link>
  );
  return (
    <p data-testid="emails-note" className="rounded-md border border-zinc-300 bg-zinc-50 px-3 py-2 dark:border-zinc-700 dark:bg-zinc-900">
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
