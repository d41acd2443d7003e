import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { linkClass, mutedText, primaryButtonClass } from "@/components/styles";
import { requireAdminSession } from "@/lib/dashboard/auth";
import { WaitlistFields } from "@/components/waitlist-fields";
import { Breadcrumb } from "../breadcrumb";
import { findWaitlist } from "../find-waitlist";

export const metadata: Metadata = { title: "Edit waitlist" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const text = (value: string | string[] | undefined, max: number) => (typeof value === "string" ? value.slice(0, max) : undefined);

// Rename a waitlist or change its website. When the new name is another waitlist's,
// /waitlists/{id}/update sends the form back here with `warn=duplicate-name` and the values typed.
export default async function EditWaitlistPage({ params, searchParams }: Props) {
  await requireAdminSession();
  const waitlist = await findWaitlist((await params).id);
  if (!waitlist) notFound();
  const query = await searchParams;
  const duplicate = query.warn === "duplicate-name";
  const name = (duplicate && text(query.name, 200)) || waitlist.name;
  const website = (duplicate && text(query.website, 2048)) || waitlist.website;
  return (
    <>
      <Breadcrumb waitlist={waitlist} />
      <h1 className="mt-2 break-words text-2xl font-semibold">Edit {waitlist.name}</h1>
      {duplicate ? (
        <p role="alert" data-testid="duplicate-warning" className="mt-4 max-w-2xl rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
          Another waitlist is already named “{name}”. Two waitlists with one name are easy to confuse: choose another name, or confirm below.
        </p>
      ) : null}
      <form method="post" action={`/waitlists/${waitlist.id}/update`} className="mt-4 grid max-w-2xl gap-4">
        <WaitlistFields name={name} website={website} />
        {duplicate ? (
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="allowDuplicateName" value="true" />
            Use this name although another waitlist has it
          </label>
        ) : null}
        <div className="flex items-center gap-4">
          <button type="submit" className={primaryButtonClass}>
            Save
          </button>
          <Link href={`/waitlists/${waitlist.id}`} className={`${linkClass} text-sm`}>
            Cancel
          </Link>
        </div>
      </form>
      <p className={`mt-6 text-sm ${mutedText}`}>
        To delete the waitlist and its signups:{" "}
        <Link href={`/waitlists/${waitlist.id}/delete`} className={`${linkClass} underline`}>
          Delete this waitlist…
        </Link>
      </p>
    </>
  );
}
