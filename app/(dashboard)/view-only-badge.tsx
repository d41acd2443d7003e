import Link from "next/link";
import { focusRing, linkClass } from "@/components/styles";

/** In the header of a view session: it can read everything and change nothing, and how to get a key that can. */
export function ViewOnlyBadge() {
  return (
    <details className="relative">
      <summary
        className={`${focusRing} cursor-pointer list-none whitespace-nowrap rounded-full border border-amber-300 bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100 [&::-webkit-details-marker]:hidden`}
      >
        View only
      </summary>
      <div className="absolute right-0 z-20 mt-2 w-72 rounded-md border border-zinc-200 bg-white p-3 text-sm shadow-lg dark:border-zinc-700 dark:bg-zinc-900">
        <p>
          This key (role <code>waitlist:view</code>) reads everything and changes nothing. To create waitlists, import, edit, erase, or manage keys, sign out and sign in
          with an admin key: an admin can create one on the Keys page, or run <code>npm run cli -- keys create --name you --role waitlist:admin</code> (
          <code>npm run demo</code> prints one).
        </p>
        <p className="mt-2">
          <Link href="/docs/dashboard#admins-and-dashboard-writes" prefetch={false} className={`${linkClass} underline`}>
            About roles
          </Link>
        </p>
      </div>
    </details>
  );
}
