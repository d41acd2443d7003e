import Link from "next/link";
import { focusRing, mutedText } from "@/components/styles";

export type Crumb = readonly [href: string, label: string];

// At least 24 px tall, so that crumbs side by side are targets of their own (WCAG 2.5.8).
const crumbLink = `${focusRing} inline-block rounded-sm py-0.5 ${mutedText} underline-offset-2 hover:text-zinc-950 hover:underline dark:hover:text-white`;

/** The way back from every dashboard page below the overview: the pages above it, linked (the page's own heading follows). */
export function Breadcrumbs({ trail }: { trail: readonly Crumb[] }) {
  return (
    <nav aria-label="Breadcrumb" className="text-sm">
      <ol className="flex flex-wrap items-center gap-x-2 gap-y-1">
        {trail.map(([href, label], index) => (
          <li key={href} className="flex min-w-0 items-center gap-x-2">
            {index > 0 ? (
              <span aria-hidden="true" className={mutedText}>
                /
              </span>
            ) : null}
            <Link href={href} className={`${crumbLink} break-words`}>
              {label}
            </Link>
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** The first crumb of every trail: the overview. */
export const HOME_CRUMB: Crumb = ["/", "Waitlists"];
