import type { Metadata } from "next";
import { Breadcrumbs, HOME_CRUMB } from "@/components/breadcrumbs";
import Link from "next/link";
import { DoneNotice } from "@/components/done-notice";
import { erasedDataStillOnDisk } from "@/lib/domain/signups/erase";
import { dangerLinkClass } from "@/components/styles";
import { requireSession, sessionIsAdmin } from "@/lib/dashboard/auth";
import { readInBackground } from "@/lib/dashboard/read-pool-client";
import { FIND_LIMIT, MIN_CONTAINS_LENGTH, parseFindParams } from "./find-params";
import { FinderForm } from "./finder-form";
import { FoundSignups } from "./found-signups";

export const metadata: Metadata = { title: "Find a person" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

// Which waitlists hold an address: the exact address first, then addresses containing the text.
export default async function FindPage({ searchParams }: Props) {
  const session = await requireSession();
  const query = await searchParams;
  const text = parseFindParams(query);
  const exact = text ? await readInBackground("findSignupsByEmail", { email: text, limit: FIND_LIMIT }) : [];
  const exactKeys = new Set(exact.map((match) => `${match.waitlistId}:${match.signupId}`));
  const searchContains = text !== undefined && text.length >= MIN_CONTAINS_LENGTH;
  // One more than shown, to know whether there are more.
  const containing = searchContains
    ? (await readInBackground("findSignupsByEmail", { contains: text, limit: FIND_LIMIT + exact.length + 1 })).filter((match) => !exactKeys.has(`${match.waitlistId}:${match.signupId}`))
    : [];
  return (
    <>
      <Breadcrumbs trail={[HOME_CRUMB]} />
      <h1 className="mt-1 text-2xl font-semibold">Find a person</h1>
      <DoneNotice done={query.done} messages={{ erased: "The address was erased from every waitlist.", "erased-on-disk": `The address was erased from every waitlist. ${erasedDataStillOnDisk()}` }} />
      <FinderForm value={text ?? ""} />
      {text === undefined ? null : (
        <div className="mt-6 space-y-8">
          <FoundSignups heading="This exact address" matches={exact} more={false} empty={`No waitlist holds the address “${text}”.`} testId="found-exact" />
          {exact.length > 0 && sessionIsAdmin(session) ? (
            <Link href={`/find/erase?email=${encodeURIComponent(text)}`} className={`${dangerLinkClass} -mt-4`}>
              Erase this address from every waitlist…
            </Link>
          ) : null}
          {searchContains ? (
            <FoundSignups
              heading={`Other addresses containing “${text}”`}
              matches={containing.slice(0, FIND_LIMIT)}
              more={containing.length > FIND_LIMIT}
              empty={`No other address contains “${text}”.`}
              testId="found-containing"
            />
          ) : (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">Type at least {MIN_CONTAINS_LENGTH} characters to also find addresses that contain the text.</p>
          )}
        </div>
      )}
    </>
  );
}
