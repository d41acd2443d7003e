"use client";

import { formatCount } from "@/components/format";
import { useTransitionClick } from "@/components/pending-navigation";
import { buttonClass, mutedText } from "@/components/styles";

interface DataTablePaginationProps {
  /** The current page, 1-based, as the URL has it. */
  page: number;
  pageSize: number;
  /** Rows in the whole filtered list. */
  rowCount: number;
  /** The deepest page the server pages to (lib/domain/list-params.ts): later pages get no link. */
  maxPage: number;
  hrefForPage: (page: number) => string;
  /** The count is a lower bound (a search that matches more than it counts): "of 400+", and later pages exist. */
  rowCountIsLowerBound?: boolean;
}

/** Links to the first, previous, next and last page; the server renders each page (needs a PendingNavigationProvider). */
export function DataTablePagination({ page, pageSize, rowCount, rowCountIsLowerBound = false, maxPage, hrefForPage }: DataTablePaginationProps) {
  const onNavigate = useTransitionClick();
  const pageCount = Math.max(1, Math.ceil(rowCount / pageSize));
  const lastPage = Math.min(pageCount, maxPage);
  const capped = lastPage < pageCount || rowCountIsLowerBound;
  // Each link's name is its visible word plus words only a screen reader hears ("Last" + " page"), so
  // that what a voice-control user reads off the screen names the link; the arrows are decoration.
  const links: { word: string; unseen: string; arrow: string; arrowFirst: boolean; target: number; enabled: boolean }[] = [
    { word: "First", unseen: " page", arrow: "«", arrowFirst: true, target: 1, enabled: page > 1 },
    { word: "Previous", unseen: " page", arrow: "‹", arrowFirst: true, target: Math.min(page - 1, lastPage), enabled: page > 1 },
    { word: "Next", unseen: " page", arrow: "›", arrowFirst: false, target: page + 1, enabled: page < lastPage },
    capped
      ? { word: `Page ${formatCount(lastPage)}`, unseen: " (the last that is shown)", arrow: "»", arrowFirst: false, target: lastPage, enabled: page < lastPage }
      : { word: "Last", unseen: " page", arrow: "»", arrowFirst: false, target: lastPage, enabled: page < lastPage },
  ];
  return (
    <nav aria-label="Pagination" className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm">
      <span className={mutedText}>
        Page {formatCount(Math.min(page, pageCount))} of {formatCount(pageCount)}
        {rowCountIsLowerBound ? "+" : null}
        {capped ? (
          <span data-testid="page-limit">
            {" "}
            (pages after {formatCount(lastPage)} are not shown: narrow the filters or the search, or reverse the sort)
          </span>
        ) : null}
      </span>
      <div className="flex flex-wrap gap-2">
        {links.map((link) => {
          const content = (
            <>
              {link.arrowFirst ? <span aria-hidden="true">{link.arrow}</span> : null}
              {link.word}
              <span className="sr-only">{link.enabled ? link.unseen : `${link.unseen} (not available)`}</span>
              {link.arrowFirst ? null : <span aria-hidden="true">{link.arrow}</span>}
            </>
          );
          return link.enabled ? (
            <a key={link.word} href={hrefForPage(link.target)} onClick={onNavigate} className={buttonClass}>
              {content}
            </a>
          ) : (
            <span key={link.word} aria-disabled="true" className={`${buttonClass} cursor-not-allowed opacity-50`}>
              {content}
            </span>
          );
        })}
      </div>
    </nav>
  );
}
