import Link from "next/link";
import { focusRing, mutedText } from "@/components/styles";

/** The way back: all waitlists, then (on a signup's page) the waitlist. */
export function Breadcrumb({ waitlist }: { waitlist?: { id: string; name: string } }) {
  const linkClass = `${focusRing} rounded-sm ${mutedText} hover:text-zinc-950 dark:hover:text-white`;
  return (
    <nav aria-label="Breadcrumb" className="text-sm">
      <ol className="flex flex-wrap items-center gap-x-2">
        <li>
          <Link href="/" className={linkClass}>
            {waitlist ? "All waitlists" : "← All waitlists"}
          </Link>
        </li>
        {waitlist ? (
          <li className="flex min-w-0 items-center gap-x-2">
            <span aria-hidden="true" className={mutedText}>
              /
            </span>
            <Link href={`/waitlists/${waitlist.id}`} className={`${linkClass} break-words`}>
              {waitlist.name}
            </Link>
          </li>
        ) : null}
      </ol>
    </nav>
  );
}
