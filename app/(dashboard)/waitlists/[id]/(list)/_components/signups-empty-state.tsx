"use client";

import { formatCount } from "@/components/format";
import { TransitionLink } from "@/components/pending-navigation";
import { buttonClass, linkClass, primaryButtonClass } from "@/components/styles";

/** Why the page has no rows: past the pages the server serves, past the end, no match, or no signups at all. */
export function SignupsEmptyState({
  clearHref,
  filtered,
  page,
  reach,
  firstPageHref,
  importHref,
  joinHref,
}: {
  clearHref: string;
  filtered: boolean;
  page: number;
  /** How deep the table pages: `pages` at the current size, covering the first `rows` rows. */
  reach: { pages: number; rows: number };
  firstPageHref: string;
  /** For an admin: where to import signups into an empty waitlist. */
  importHref?: string;
  /** For an admin: where to open joining, the first thing a new waitlist needs. */
  joinHref?: string;
}) {
  const firstPageLink = (
    <p className="mt-2">
      <TransitionLink href={firstPageHref} className={linkClass}>
        Go to the first page
      </TransitionLink>
    </p>
  );
  if (page > reach.pages) {
    return (
      <div className="px-4 py-10 text-center" data-testid="beyond-reach">
        <p className="font-medium">Only the first {formatCount(reach.rows)} signups of a list can be paged through.</p>
        <p className="mt-2">
          To see others, narrow the filters or the search, or reverse the sort. The CSV export and the API return every signup.
        </p>
        {firstPageLink}
      </div>
    );
  }
  if (page > 1) {
    return (
      <div className="px-4 py-10 text-center">
        <p className="font-medium">This page is past the end of the list.</p>
        {firstPageLink}
      </div>
    );
  }
  return (
    <div className="px-4 py-10 text-center">
      <p className="font-medium">{filtered ? "No signups match these filters." : "This waitlist has no signups yet."}</p>
      {filtered ? (
        <p className="mt-2">
          <TransitionLink href={clearHref} className={linkClass}>
            Clear filters
          </TransitionLink>
        </p>
      ) : importHref || joinHref ? (
        <p className="mt-3 flex flex-wrap justify-center gap-2">
          {joinHref ? (
            <TransitionLink href={joinHref} className={primaryButtonClass}>
              Open joining
            </TransitionLink>
          ) : null}
          {importHref ? (
            <TransitionLink href={importHref} className={joinHref ? buttonClass : primaryButtonClass}>
              Import signups
            </TransitionLink>
          ) : null}
        </p>
      ) : null}
    </div>
  );
}
