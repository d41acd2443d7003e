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
  const links: { label: string; text: string; target: number; enabled: boolean }[] = [
    { label: "First page", text: "« First", target: 1, enabled: page > 1 },
    { label: "Previous page", text: "‹ Previous", target: Math.min(page - 1, lastPage), enabled: page > 1 },
    { label: "Next page", text: "Next ›", target: page + 1, enabled: page < lastPage },
    capped
      ? { label: `Page ${formatCount(lastPage)}, the last that is shown`, text: `Page ${formatCount(lastPage)} »`, target: lastPage, enabled: page < lastPage }
      : { label: "Last page", text: "Last »", target: lastPage, enabled: page < lastPage },
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
        {links.map((link) =>
          link.enabled ? (
            <a key={link.label} href={hrefForPage(link.target)} onClick={onNavigate} aria-label={link.label} className={buttonClass}>
              {link.text}
            </a>
          ) : (
            <span key={link.label} aria-disabled="true" className={`${buttonClass} cursor-not-allowed opacity-50`}>
              <span aria-hidden="true">{link.text}</span>
              <span className="sr-only">{link.label} (not available)</span>
            </span>
          ),
        )}
      </div>
    </nav>
  );
}
