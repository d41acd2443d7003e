import type { Metadata } from "next";
import { notFound } from "next/navigation";
import Link from "next/link";
import { CopyButton } from "@/components/copy-button";
import { formatDateTime } from "@/components/format";
import { LocalTime } from "@/components/local-time";
import { dangerLinkClass, mutedText } from "@/components/styles";
import { requireSession, sessionIsAdmin } from "@/lib/dashboard/auth";
import { Breadcrumb } from "../../breadcrumb";
import { findWaitlist } from "../../find-waitlist";
import { CustomInputList } from "./custom-input-list";
import { findSignup } from "./find-signup";

type Params = { params: Promise<{ id: string; signupId: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  await requireSession();
  const { id, signupId } = await params;
  const waitlist = findWaitlist(id);
  return { title: waitlist && findSignup(waitlist.id, signupId) ? `Signup · ${waitlist.name}` : "Signup not found" };
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
export default async function SignupPage({ params }: Params) {
  const session = await requireSession();
  const { id, signupId } = await params;
  const waitlist = findWaitlist(id);
  const signup = waitlist ? findSignup(waitlist.id, signupId) : undefined;
  if (!waitlist || !signup) notFound();
  const iso = signup.createdAt.toISOString();
  const utc = `${formatDateTime(signup.createdAt)} UTC`;
  return (
    <>
      <Breadcrumb waitlist={waitlist} />
      <h1 className="mt-2 break-all text-2xl font-semibold">{signup.email}</h1>
      <p className={`mt-1 text-sm ${mutedText}`}>A signup of {waitlist.name}.</p>
      <dl className="mt-6 divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900">
        <Field name="Email" copy={{ value: signup.email, label: "Copy email" }}>
          <span data-testid="signup-email">{signup.email}</span>
        </Field>
        <Field name="Verified">{signup.verified ? "Yes" : "No"}</Field>
        <Field name="Referral">{signup.referral ? "Yes" : "No"}</Field>
        <Field name="Status">
          <span data-testid="signup-status">
            {signup.status[0]!.toUpperCase() + signup.status.slice(1)}
            {signup.statusChangedAt ? ` since ${signup.statusChangedAt.toISOString()}` : ""}
          </span>
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
      <CustomInputList inputs={signup.customInputs} jsonHref={`/waitlists/${waitlist.id}/signups/${signupId}/custom-inputs`} />
      {sessionIsAdmin(session) ? (
        <p className="mt-6">
          <Link href={`/waitlists/${waitlist.id}/signups/${signupId}/erase`} className={dangerLinkClass}>
            Erase this signup…
          </Link>
        </p>
      ) : null}
    </>
  );
}
