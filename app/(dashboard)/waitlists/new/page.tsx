import type { Metadata } from "next";
import Link from "next/link";
import { linkClass, mutedText, primaryButtonClass } from "@/components/styles";
import { WebsiteLink } from "@/components/website-link";
import { requireAdminSession } from "@/lib/dashboard/auth";
import { waitlistsNamed } from "@/lib/domain/waitlists/manage";
import { Breadcrumb } from "../[id]/breadcrumb";
import { WaitlistFields } from "@/components/waitlist-fields";

export const metadata: Metadata = { title: "New waitlist" };

const text = (value: string | string[] | undefined, max: number) => (typeof value === "string" ? value.slice(0, max) : "");

// The warning step of a create whose name is already in use (/waitlists/create sends it here):
// the same fields, and a confirmation that a second waitlist of that name is wanted.
export default async function NewWaitlistPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requireAdminSession();
  const params = await searchParams;
  const name = text(params.name, 200);
  const website = text(params.website, 2048);
  const existing = name.trim() ? await waitlistsNamed(name) : [];
  return (
    <>
      <Breadcrumb />
      <h1 className="mt-1 text-2xl font-semibold">New waitlist</h1>
      {existing.length > 0 ? (
        <div role="alert" data-testid="duplicate-warning" className="mt-4 max-w-2xl rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
          <p className="font-medium">
            {existing.length === 1 ? "A waitlist" : `${existing.length} waitlists`} named “{name.trim()}” already exist{existing.length === 1 ? "s" : ""}:
          </p>
          <ul className="mt-2 list-disc pl-5">
            {existing.map((waitlist) => (
              <li key={waitlist.id}>
                <Link href={`/waitlists/${waitlist.id}`} className={linkClass}>
                  {waitlist.name}
                </Link>{" "}
                (<WebsiteLink website={waitlist.website} />)
              </li>
            ))}
          </ul>
          <p className="mt-2">Two waitlists with one name are easy to confuse. Create another one anyway, or choose another name.</p>
        </div>
      ) : null}
      <form method="post" action="/waitlists/create" className="mt-4 grid max-w-2xl gap-4">
        <WaitlistFields name={name} website={website} />
        {existing.length > 0 ? (
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="allowDuplicateName" value="true" required />
            Create it although another waitlist has this name
          </label>
        ) : null}
        <div className="flex items-center gap-4">
          <button type="submit" className={primaryButtonClass}>
            Create waitlist
          </button>
          <Link href="/" className={`${linkClass} text-sm`}>
            Cancel
          </Link>
        </div>
      </form>
      <p className={`mt-2 text-xs ${mutedText}`}>The website must be an absolute http or https URL.</p>
    </>
  );
}
