import type { Metadata } from "next";
import { cookies, headers } from "next/headers";
import { notFound } from "next/navigation";
import { CopyButton } from "@/components/copy-button";
import { buttonClass, inputClass, linkClass, mutedText } from "@/components/styles";
import { personPagePath } from "@/lib/domain/verification/email";
import { JOINED_COOKIE } from "@/lib/join/joined-cookie";
import { joinedViewOf, type JoinedView } from "@/lib/join/joined-view";
import { requestOrigin } from "@/lib/http/origin";
import { JoinCard } from "../../join-card";

export const metadata: Metadata = { title: { absolute: "You're on the waitlist" } };

const RESENT: Record<string, string> = {
  sent: "We sent the confirmation email again.",
  rate_limited: "A confirmation email went out a moment ago: please check your inbox (and spam folder) before asking again.",
  already_verified: "Your address is already confirmed.",
};

type Props = { params: Promise<{ waitlistId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * After the form, and the page an emailed link opens (see joinedViewOf): a person's place in line and
 * referral link reach only that person; after the form, an address already on the list learns nothing
 * but that.
 */
export default async function JoinedPage({ params, searchParams }: Props) {
  const { waitlistId } = await params;
  const query = await searchParams;
  const view = await joinedViewOf(waitlistId, typeof query.t === "string" ? query.t : undefined, (await cookies()).get(JOINED_COOKIE)?.value);
  if (!view) notFound();
  const back = (
    <p className="mt-6 text-sm">
      <a href={`/join/${view.waitlist.id}`} className={linkClass}>
        Back to the form
      </a>
    </p>
  );
  if (view.kind === "own") return <OwnPage view={view} resent={typeof query.resent === "string" ? RESENT[query.resent] : undefined} back={back} />;
  if (view.kind === "check_inbox") {
    return (
      <JoinCard title="Check your inbox">
        <WaitlistName name={view.waitlist.name} />
        <SuccessMessage text={view.settings.successMessage} />
        <p data-testid="joined-notice" className="mt-4">
          We sent an email to the address you entered: follow its link to confirm your place and to see your place in line and your referral link. If it is not there in a few minutes, check your spam folder.
        </p>
        {back}
      </JoinCard>
    );
  }
  if (view.kind === "already_on_list") {
    return (
      <JoinCard title="This address is already on the list">
        <WaitlistName name={view.waitlist.name} />
        <p data-testid="joined-notice" className="mt-4">
          {view.emailed
            ? "Nothing has changed. We've emailed it a link to its page, with its place in line and its referral link."
            : "Nothing has changed. To learn your place in line, check with the list's owner."}
        </p>
        {back}
      </JoinCard>
    );
  }
  return (
    <JoinCard title="Nothing to show here">
      <WaitlistName name={view.waitlist.name} />
      <p data-testid="joined-notice" className="mt-4">
        This page shows your place in line in the browser you joined with, or from the link in the email we sent you. Open that link, or join again.
      </p>
      {back}
    </JoinCard>
  );
}

function WaitlistName({ name }: { name: string }) {
  return (
    <p data-testid="joined-waitlist" className={`mt-2 text-sm ${mutedText}`}>
      {name} waitlist
    </p>
  );
}

function SuccessMessage({ text }: { text: string }) {
  return text ? (
    <p data-testid="success-message" className="mt-4 whitespace-pre-line">
      {text}
    </p>
  ) : null;
}

/** The signup's own page: its place, its referral link, and, by an emailed link, "send the email again". */
async function OwnPage({ view, resent, back }: { view: Extract<JoinedView, { kind: "own" }>; resent: string | undefined; back: React.ReactNode }) {
  const { waitlist, signup, settings, token } = view;
  const referralLink = `${requestOrigin(await headers())}/join/${waitlist.id}?ref=${encodeURIComponent(signup.referral_code)}`;
  const ownPagePath = await personPagePath(waitlist.id, signup.id);
  return (
    <JoinCard title={signup.position !== null ? `You're number ${signup.position.toLocaleString("en-US")} in line` : `You're on the ${waitlist.name} waitlist`}>
      <WaitlistName name={waitlist.name} />
      <SuccessMessage text={settings.successMessage} />
      {settings.verification && !signup.verified ? (
        <div data-testid="verify-notice" className="mt-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100">
          <p>We sent a link to your email address: follow it to confirm your place.</p>
          {token ? (
            <form method="post" action={`/join/${waitlist.id}/resend`} className="mt-2">
              <input type="hidden" name="t" value={token} />
              <button type="submit" className={`${buttonClass} text-xs`}>
                Send the email again
              </button>
            </form>
          ) : null}
          {resent ? (
            <p role="status" data-testid="resent" className="mt-2">
              {resent}
            </p>
          ) : null}
        </div>
      ) : null}
      <div className="mt-6">
        <label htmlFor="referral-link" className="text-sm font-medium">
          Your referral link
        </label>
        <p className={`text-sm ${mutedText}`}>Share it: people who join through it are counted as your referrals.</p>
        <div className="mt-2 flex items-center gap-2">
          <input id="referral-link" readOnly value={referralLink} className={`${inputClass} w-full min-w-0 font-mono text-xs`} />
          <CopyButton value={referralLink} label="Copy the referral link" />
        </div>
      </div>
      {/* Shown only to whoever holds the signup (an emailed link, or the browser that just created it). */}
      <p className="mt-4 text-sm">
        <a href={ownPagePath} className={linkClass}>
          Open your own page: share buttons, your referrals, your answers, your data
        </a>
      </p>
      {back}
    </JoinCard>
  );
}
