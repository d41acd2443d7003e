import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { formatDateTime } from "@/components/format";
import { ConfirmForm } from "@/components/confirm-form";
import { linkClass, mutedText } from "@/components/styles";
import { requireAdminSession } from "@/lib/dashboard/auth";
import { signupsWithAddress } from "@/lib/domain/signups/erase";
import { Breadcrumb } from "../../../breadcrumb";
import { findWaitlist } from "../../../find-waitlist";
import { findSignup } from "../find-signup";

export const metadata: Metadata = { title: "Erase signup" };

type Params = { params: Promise<{ id: string; signupId: string }> };

// The confirmation of an erasure of one signup: what goes, and where else the address is.
export default async function EraseSignupPage({ params }: Params) {
  await requireAdminSession();
  const { id, signupId } = await params;
  const waitlist = await findWaitlist(id);
  const signup = waitlist ? await findSignup(waitlist.id, signupId) : undefined;
  if (!waitlist || !signup) notFound();
  const elsewhere = (await signupsWithAddress(signup.email)).filter((other) => other.waitlistId !== waitlist.id);
  return (
    <>
      <Breadcrumb waitlist={waitlist} via={[[`/waitlists/${waitlist.id}/signups/${signupId}`, signup.email]]} />
      <h1 className="mt-2 break-all text-2xl font-semibold">Erase {signup.email}?</h1>
      <div className="mt-4 max-w-2xl space-y-3 text-sm">
        <p>This erases, for good, from {waitlist.name}:</p>
        <ul className="list-disc space-y-1 pl-5" data-testid="what-goes">
          <li>
            the signup of <strong className="break-all">{signup.email}</strong>, made {formatDateTime(signup.createdAt)} UTC, with its {signup.customInputs.length} custom input
            {signup.customInputs.length === 1 ? "" : "s"};
          </li>
          <li>its part in the waitlist&apos;s counts, facets and search index.</li>
        </ul>
        <p className={mutedText}>The audit log records the erasure with a keyed hash of the address, never the address. CSV files exported before and database backups keep their copies.</p>
        {elsewhere.length > 0 ? (
          <p data-testid="elsewhere">
            The address is also on {elsewhere.map((other) => other.waitlistName).join(", ")}, which keep{elsewhere.length === 1 ? "s" : ""} it.{" "}
            <Link href={`/find/erase?email=${encodeURIComponent(signup.email)}`} className={`${linkClass} underline`}>
              Erase it from every waitlist instead…
            </Link>
          </p>
        ) : null}
      </div>
      <ConfirmForm action={`/waitlists/${waitlist.id}/signups/${signupId}/erase/confirm`} submit="Erase this signup" cancelHref={`/waitlists/${waitlist.id}/signups/${signupId}`} />
    </>
  );
}
