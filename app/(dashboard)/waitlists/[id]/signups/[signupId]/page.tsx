import type { Metadata } from "next";
import { notFound } from "next/navigation";
import Link from "next/link";
import { CopyButton } from "@/components/copy-button";
import { DoneNotice } from "@/components/done-notice";
import { formatDateTime } from "@/components/format";
import { LocalTime } from "@/components/local-time";
import { dangerLinkClass, linkClass, mutedText } from "@/components/styles";
import { requireSession, sessionIsAdmin } from "@/lib/dashboard/auth";
import { statusDoneMessages } from "@/lib/dashboard/status-done";
import { STATUS_LABELS } from "@/lib/domain/signups/status";
import { signupEvents } from "@/lib/domain/events";
import { signupPosition } from "@/lib/domain/joining/position";
import { REFERRAL_STATE_LABELS, referralCountOf, referralStateOf, referrerOf } from "@/lib/domain/joining/referrals";
import { signupPublicId } from "@/lib/domain/signups/id";
import { invitationExpiryWords } from "@/lib/domain/invitations/policies";
import { SignupFlags } from "./signup-flags";
import { Breadcrumb } from "../../breadcrumb";
import { findWaitlist } from "../../find-waitlist";
import { CustomInputList } from "./custom-input-list";
import { findSignup } from "./find-signup";
import { StatusHistory } from "./status-history";

type Params = { params: Promise<{ id: string; signupId: string }> };
type Props = Params & { searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  await requireSession();
  const { id, signupId } = await params;
  const waitlist = await findWaitlist(id);
  return { title: waitlist && await findSignup(waitlist.id, signupId) ? `Signup · ${waitlist.name}` : "Signup not found" };
}

function Field({ name, children, copy }: { name: string; children: React.ReactNode; copy?: { value: string; label: string } }) {
  return (
    // A <dl> group may hold only <dt> and <dd>: the copy button lives inside the <dd>.
    <div className="grid gap-1 px-4 py-3 sm:grid-cols-[10rem_1fr] sm:items-center sm:gap-4">
      <dt className={`text-sm ${mutedText}`}>{name}</dt>
      <dd className="flex min-w-0 items-center justify-between gap-4 text-sm">
        <span className="min-w-0 break-words">{children}</span>
        {copy ? <CopyButton value={copy.value} label={copy.label} /> : null}
      </dd>
    </div>
  );
}

// One signup with every field. No loading boundary above it, so an unknown id is a real 404.
export default async function SignupPage({ params, searchParams }: Props) {
  const session = await requireSession();
  const { id, signupId } = await params;
  const waitlist = await findWaitlist(id);
  const signup = waitlist ? await findSignup(waitlist.id, signupId) : undefined;
  if (!waitlist || !signup) notFound();
  const iso = signup.createdAt.toISOString();
  const utc = `${formatDateTime(signup.createdAt)} UTC`;
  const query = await searchParams;
  const page = `/waitlists/${waitlist.id}/signups/${signupId}`;
  const admin = sessionIsAdmin(session);
  const referrer = await referrerOf(signup.id);
  const referralState = referrer && await referralStateOf(signup.id);
  const position = await signupPosition(waitlist.id, signup.id);
  return (
    <>
      <Breadcrumb waitlist={waitlist} />
      <DoneNotice done={query.done} messages={statusDoneMessages(query.changed)} />
      <h1 className="mt-2 break-all text-2xl font-semibold">{signup.email}</h1>
      <p className={`mt-1 text-sm ${mutedText}`}>A signup of {waitlist.name}.</p>
      <dl className="mt-6 divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900">
        <Field name="Email" copy={{ value: signup.email, label: "Copy email" }}>
          <span data-testid="signup-email">{signup.email}</span>
        </Field>
        <Field name="Verified">{signup.verified ? "Yes" : "No"}</Field>
        <Field name="Referral">{signup.referral ? "Yes" : "No"}</Field>
        <Field name="Referred by">
          <span data-testid="signup-referrer">
            {referrer ? (
              <Link href={`/waitlists/${waitlist.id}/signups/${signupPublicId(referrer.id)}`} className={`${linkClass} break-all`}>
                {referrer.email}
              </Link>
            ) : (
              "No one"
            )}
          </span>
          {referralState ? (
            <span data-testid="signup-referral-state" className={`ml-2 text-sm ${mutedText}`}>
              ({REFERRAL_STATE_LABELS[referralState]})
            </span>
          ) : null}
        </Field>
        <Field name="Flags">
          <SignupFlags signupId={signup.id} waitlistId={waitlist.id} />
        </Field>
        <Field name="Referrals counted">
          <span data-testid="signup-referrals">{(await referralCountOf(signup.id)).toLocaleString("en-US")}</span>
        </Field>
        <Field name="Place in line">
          <span data-testid="signup-position">{position === null ? "Not waiting" : position.toLocaleString("en-US")}</span>
        </Field>
        <Field name="Status">
          <span data-testid="signup-status">
            {STATUS_LABELS[signup.status]}
            {signup.statusChangedAt ? ` since ${signup.statusChangedAt.toISOString()}` : ""}
          </span>
          {signup.status === "invited" && signup.statusChangedAt ? (
            <span data-testid="signup-invite-expiry" className={`ml-1 ${mutedText}`}>
              ({await invitationExpiryWords(waitlist.id, signup.statusChangedAt)})
            </span>
          ) : null}
        </Field>
        <Field name="Signed up (UTC)" copy={{ value: iso, label: "Copy signup time" }}>
          <time dateTime={iso} className="font-mono" data-testid="signup-created-at">
            {iso}
          </time>
        </Field>
        <Field name="Signed up (your time)">
          <LocalTime iso={iso} fallback={utc} />
        </Field>
        <Field name="Signup ID" copy={{ value: signupId, label: "Copy signup id" }}>
          <code className="break-all font-mono text-xs">{signupId}</code>
        </Field>
      </dl>
      <StatusHistory
        createdAt={signup.createdAt}
        events={await signupEvents(signup.id)}
        status={signup.status}
        actionHref={admin ? (action) => `/waitlists/${waitlist.id}/status/${action}?ids=${signupId}&return=${encodeURIComponent(page)}` : undefined}
      />
      <CustomInputList inputs={signup.customInputs} jsonHref={`${page}/custom-inputs`} />
      {admin ? (
        <p className="mt-6">
          <Link href={`${page}/erase`} className={dangerLinkClass}>
            Erase this signup…
          </Link>
        </p>
      ) : null}
    </>
  );
}
