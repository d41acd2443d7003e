import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { DoneNotice } from "@/components/done-notice";
import { buttonClass, inputClass, linkClass, mutedText, primaryButtonClass } from "@/components/styles";
import { env } from "@/lib/core/env";
import { AppError } from "@/lib/core/errors";
import { invalidInputMessage } from "@/lib/dashboard/write-refusal";
import { requireAdminSession } from "@/lib/dashboard/auth";
import { composeEmail } from "@/lib/domain/emails/compose";
import { getInvitationEmail, MAX_BODY, MAX_INVITE_EXPIRY_DAYS, MAX_SUBJECT, previewInvitation, type InvitationEmailInput } from "@/lib/domain/emails/invitation";
import { signupPublicId } from "@/lib/domain/signups/id";
import { listSignupRows } from "@/lib/domain/signups/queries";
import { Breadcrumb } from "../breadcrumb";
import { findWaitlist } from "../find-waitlist";
import { EmailPreview } from "./email-preview";
import { SendTestForm } from "./send-test-form";
import { ExpiryFields } from "./expiry-fields";

export const metadata: Metadata = { title: "Invitation email" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const DONE = { saved: "Invitation email saved: it applies to signups invited from now on." };
const PLACEHOLDERS = ["{{email}}", "{{waitlist.name}}", "{{waitlist.website}}", "{{input.<label>}}", "{{invite.url}}", "{{person.url}}"];

const EDITOR_FORM_ID = "invitation-email-editor";

const text = (value: string | string[] | undefined) => (typeof value === "string" ? value : undefined);

/** The email `signup` (or the newest signup) would get, with the draft when there is one; or why there is none. */
async function preview(waitlistId: string, signup: string | undefined, draft: InvitationEmailInput | undefined) {
  const target = signup?.trim() || (await listSignupRows({ scope: { waitlistId }, offset: 0, limit: 1 })).map((row) => signupPublicId(row.id))[0];
  if (target === undefined) return { note: "This waitlist has no signup yet to preview against." };
  try {
    return { email: await composeEmail(waitlistId, await previewInvitation(waitlistId, target, draft)), signup: target };
  } catch (error) {
    if (error instanceof z.ZodError) return { error: invalidInputMessage(error, "form", "") };
    if (error instanceof AppError && error.code === "not_found") return { error: `This waitlist has no signup with the id ${target}.` };
    throw error;
  }
}

// A waitlist's invitation email: on/off, the template, a preview against a real signup of the saved or the edited template (its HTML in the list's brand and its text), and a test sent to the admin (admins only).
export default async function InvitationEmailPage({ params, searchParams }: Props) {
  await requireAdminSession();
  const waitlist = await findWaitlist((await params).id);
  if (!waitlist) notFound();
  const query = await searchParams;
  const saved = await getInvitationEmail(waitlist.id);
  // "Preview" submits the editor as a GET to this page: its fields are the draft.
  const subject = text(query.subject);
  const body = text(query.body);
  const draft = subject !== undefined || body !== undefined ? { subject, body: body?.replace(/\r\n/g, "\n") } : undefined;
  const enabled = draft ? query.enabled === "true" : saved.enabled;
  const shown = await preview(waitlist.id, text(query.signup), draft);
  const configured = env().SMTP_URL !== undefined;
  return (
    <>
      <Breadcrumb waitlist={waitlist} />
      <h1 className="mt-1 break-words text-2xl font-semibold">Invitation email of {waitlist.name}</h1>
      <p className={`mt-1 max-w-2xl text-sm ${mutedText}`}>
        When it is on, each signup invited gets one email from this template, sent with the webhooks and shown in{" "}
        <Link href={`/waitlists/${waitlist.id}/deliveries`} className={`${linkClass} underline`}>
          the delivery log
        </Link>
        . The CLI does the same: <code>emails show|set|preview</code>. To invite on a schedule (&ldquo;every weekday at 09:00, the next 200&rdquo;):{" "}
        <Link href={`/waitlists/${waitlist.id}/schedules`} className={`${linkClass} underline`}>
          Paced invitations
        </Link>
        .
      </p>
      <DoneNotice done={query.done} messages={DONE} />
      {configured ? null : (
        <div role="note" data-testid="smtp-unset" className="mt-4 max-w-2xl rounded-md border border-amber-400 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50">
          Email is not configured: each invitation email is rendered and kept in the log as “not sent: email is not configured”. To send them, set <code>SMTP_URL</code> (such as <code>smtps://user:password@smtp.example.com:465</code>) and <code>MAIL_FROM</code>, and restart the server: see{" "}
          <Link href="/docs/configuration" className="underline">
            Configuration
          </Link>
          .
        </div>
      )}
      <form id={EDITOR_FORM_ID} method="post" action={`/waitlists/${waitlist.id}/email/save`} className="mt-6 grid max-w-2xl gap-4">
        <label className="flex items-center gap-2 text-sm font-medium">
          <input type="checkbox" name="enabled" value="true" defaultChecked={enabled} />
          Send an invitation email to each signup invited
        </label>
        <p id="placeholders-hint" className={`text-sm ${mutedText}`}>
          Placeholders: {PLACEHOLDERS.map((name, index) => (
            <span key={name}>
              {index > 0 ? ", " : null}
              <code>{name}</code>
            </span>
          ))}{" "}
          (a custom input by its label, empty when the signup has none; the invite link, the person&apos;s own page).
        </p>
        <fieldset className="grid gap-3 rounded-md border border-zinc-300 p-3 dark:border-zinc-700">
          <legend className="px-1 text-sm font-medium">Invite links</legend>
          <p id="invite-links-hint" className={`text-xs ${mutedText}`}>
            <code>{"{{invite.url}}"}</code> is your product&apos;s sign-up page with <code>?invite=&lt;token&gt;</code>: a token for this invitation only, which your product checks and redeems through the API (
            <Link href="/docs/connect-your-product" className="underline">
              Connect your product
            </Link>
            ). Empty while no sign-up URL is set.
          </p>
          <div>
            <label htmlFor="invite-url" className="text-sm font-medium">
              Sign-up URL
            </label>
            <input id="invite-url" name="invite_url" type="url" maxLength={2000} placeholder="https://app.example.com/signup" defaultValue={saved.inviteUrl ?? ""} aria-describedby="invite-links-hint" autoComplete="off" className={`${inputClass} mt-1 w-full`} />
          </div>
          <div>
            <label htmlFor="invite-expiry" className="text-sm font-medium">
              Days an invite link stays good
            </label>
            <input id="invite-expiry" name="invite_expiry" type="number" required min={1} max={MAX_INVITE_EXPIRY_DAYS} step={1} defaultValue={saved.inviteExpiryDays} className={`${inputClass} mt-1 w-28`} />
          </div>
        </fieldset>
        <ExpiryFields saved={saved} />
        <div>
          <label htmlFor="email-subject" className="text-sm font-medium">
            Subject
          </label>
          <input id="email-subject" name="subject" required maxLength={MAX_SUBJECT} defaultValue={subject ?? saved.subject} aria-describedby="placeholders-hint" autoComplete="off" className={`${inputClass} mt-1 w-full`} />
        </div>
        <div>
          <label htmlFor="email-body" className="text-sm font-medium">
            Body (plain text)
          </label>
          <textarea id="email-body" name="body" required rows={10} maxLength={MAX_BODY} defaultValue={draft?.body ?? saved.body} aria-describedby="placeholders-hint" className={`${inputClass} mt-1 w-full font-mono`} />
        </div>
        <div>
          <label htmlFor="email-signup" className="text-sm font-medium">
            Preview for signup id
          </label>
          <p id="email-signup-hint" className={`text-xs ${mutedText}`}>
            Empty: the newest signup.
          </p>
          <input id="email-signup" name="signup" maxLength={20} inputMode="numeric" defaultValue={text(query.signup) ?? ""} aria-describedby="email-signup-hint" autoComplete="off" className={`${inputClass} mt-1 w-40`} />
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" className={primaryButtonClass}>
            Save
          </button>
          <button type="submit" formMethod="get" formAction={`/waitlists/${waitlist.id}/email`} formNoValidate className={buttonClass}>
            Preview
          </button>
          <Link href={`/waitlists/${waitlist.id}`} className={`${linkClass} text-sm`}>
            Cancel
          </Link>
        </div>
      </form>
      <SendTestForm action={`/waitlists/${waitlist.id}/email/send-test`} editorFormId={EDITOR_FORM_ID} />
      {shown.email ? (
        <EmailPreview email={shown.email} draft={draft !== undefined} />
      ) : shown.note ? (
        <p className={`mt-6 text-sm ${mutedText}`}>{shown.note}</p>
      ) : (
        <p role="alert" data-testid="preview-error" className="mt-6 max-w-2xl rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
          {shown.error}
        </p>
      )}
    </>
  );
}
