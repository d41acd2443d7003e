import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { CopyButton } from "@/components/copy-button";
import { buttonClass, inputClass, linkClass, mutedText } from "@/components/styles";
import { joinedSignupOf } from "@/lib/dashboard/join-result";
import { requestOrigin } from "@/lib/http/origin";
import { JoinCard } from "../../join-card";

export const metadata: Metadata = { title: { absolute: "You're on the waitlist" } };

const RESENT: Record<string, string> = {
  sent: "We sent the confirmation email again.",
  rate_limited: "A confirmation email went out a moment ago: please check your inbox (and spam folder) before asking again.",
  already_verified: "Your address is already confirmed.",
};

type Props = { params: Promise<{ waitlistId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** After joining (or joining again with the same address): the signup's place in line and referral link, found by the signed token `t`. */
export default async function JoinedPage({ params, searchParams }: Props) {
  const { waitlistId } = await params;
  const query = await searchParams;
  const token = typeof query.t === "string" ? query.t : "";
  const joined = joinedSignupOf(waitlistId, token);
  if (!joined) notFound();
  const { waitlist, signup, settings } = joined;
  const referralLink = `${requestOrigin(await headers())}/join/${waitlist.id}?ref=${encodeURIComponent(signup.referral_code)}`;
  const resent = typeof query.resent === "string" ? RESENT[query.resent] : undefined;
  return (
    <JoinCard title={signup.position !== null ? `You're number ${signup.position.toLocaleString("en-US")} in line` : `You're on the ${waitlist.name} waitlist`}>
      <p data-testid="joined-waitlist" className={`mt-2 text-sm ${mutedText}`}>
        {waitlist.name} waitlist
      </p>
      {settings.successMessage ? (
        <p data-testid="success-message" className="mt-4 whitespace-pre-line">
          {settings.successMessage}
        </p>
      ) : null}
      {settings.verification && !signup.verified ? (
        <div data-testid="verify-notice" className="mt-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100">
          <p>We sent a link to your email address: follow it to confirm your place.</p>
          <form method="post" action={`/join/${waitlist.id}/resend`} className="mt-2">
            <input type="hidden" name="t" value={token} />
            <button type="submit" className={`${buttonClass} text-xs`}>
              Send the email again
            </button>
          </form>
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
      <p className="mt-6 text-sm">
        <a href={`/join/${waitlist.id}`} className={linkClass}>
          Back to the form
        </a>
      </p>
    </JoinCard>
  );
}
