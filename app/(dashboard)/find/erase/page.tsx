import type { Metadata } from "next";
import { Breadcrumbs, HOME_CRUMB } from "@/components/breadcrumbs";
import Link from "next/link";
import { ConfirmForm } from "@/components/confirm-form";
import { linkClass, mutedText } from "@/components/styles";
import { requireAdminSession } from "@/lib/dashboard/auth";
import { signupsWithAddress } from "@/lib/domain/signups/erase";
import { parseFindParams } from "../find-params";
import { FoundSignups } from "../found-signups";

export const metadata: Metadata = { title: "Erase an address" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

// The confirmation of an erasure of an address from every waitlist: every signup that goes.
export default async function EraseAddressPage({ searchParams }: Props) {
  await requireAdminSession();
  const query = await searchParams;
  const email = parseFindParams(query);
  const mismatch = query.error === "confirm";
  const signups = email ? await signupsWithAddress(email) : [];
  return (
    <>
      <Breadcrumbs trail={[HOME_CRUMB, [`/find?email=${encodeURIComponent(email ?? "")}`, "Find a person"]]} />
      <h1 className="mt-1 break-all text-2xl font-semibold">{email ? `Erase ${email} from every waitlist?` : "Erase an address"}</h1>
      {signups.length === 0 ? (
        <p className={`mt-4 text-sm ${mutedText}`}>
          No waitlist holds this address: there is nothing to erase.{" "}
          <Link href="/find" className={`${linkClass} underline`}>
            Find a person
          </Link>
        </p>
      ) : (
        <>
          <div className="mt-4 max-w-2xl space-y-3 text-sm">
            <p>
              This erases, for good, these {signups.length} signup{signups.length === 1 ? "" : "s"} (the address in any case), with their custom inputs and their part in
              every count, facet and search index:
            </p>
          </div>
          <div className="mt-4">
            <FoundSignups heading="What will be erased" matches={signups} more={false} empty="" testId="what-goes" />
          </div>
          <p className={`mt-4 max-w-2xl text-sm ${mutedText}`}>
            The audit log records the erasure with a keyed hash of the address, never the address. CSV files exported before and database backups keep their copies.
          </p>
          <ConfirmForm
            action="/find/erase/confirm"
            hidden={{ email: email ?? "" }}
            typed={{ label: "Type the address to confirm" }}
            mismatch={mismatch ? "The address you typed is not this address: nothing was erased." : undefined}
            submit={`Erase ${signups.length} signup${signups.length === 1 ? "" : "s"}`}
            cancelHref={`/find?email=${encodeURIComponent(email ?? "")}`}
          />
        </>
      )}
    </>
  );
}
