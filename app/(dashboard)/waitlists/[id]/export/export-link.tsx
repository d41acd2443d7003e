"use client";

import { Suspense, use, useState } from "react";
import { formatCount } from "@/components/format";
import { buttonClass } from "@/components/styles";
import type { SignupCounts } from "@/lib/domain/signups/counts";

/**
 * "Export 1,234 rows as CSV" (how many it exports, once counted; "at least" when the count is a lower
 * bound), and "Answers in columns", which switches the link to the export with each answer's label a
 * column of its own (`columnsHref`) for spreadsheets.
 */
export function ExportLink({ href, columnsHref, counts }: { href: string; columnsHref: string; counts: Promise<SignupCounts> }) {
  const [inColumns, setInColumns] = useState(false);
  const chosen = inColumns ? columnsHref : href;
  return (
    <span className="flex items-center gap-2">
      <Suspense fallback={<Link href={chosen} detail="CSV" />}>
        <CountedLink href={chosen} counts={counts} />
      </Suspense>
      {/* Not on a phone, where the toolbar would take a second line: spreadsheets are opened elsewhere. */}
      <label className="flex items-center gap-1.5 text-sm max-sm:hidden" title="Each form field in its own column, for spreadsheets">
        <input type="checkbox" checked={inColumns} onChange={(event) => setInColumns(event.target.checked)} className="size-4 accent-blue-700" />
        <span>Answers in columns</span>
      </label>
    </span>
  );
}

function CountedLink({ href, counts }: { href: string; counts: Promise<SignupCounts> }) {
  const { total, exact } = use(counts);
  return <Link href={href} detail={`${exact ? "" : "at least "}${formatCount(total)} ${total === 1 ? "row" : "rows"} as CSV`} />;
}

/** "Export" and its detail; a phone shows only "Export" (the detail stays for screen readers). */
function Link({ href, detail }: { href: string; detail: string }) {
  return (
    <a href={href} download className={buttonClass} data-testid="export-csv">
      <span>
        Export<span className="max-sm:sr-only"> {detail}</span>
      </span>
    </a>
  );
}
