"use client";

import { Suspense, use } from "react";
import { formatCount } from "@/components/format";
import { buttonClass } from "@/components/styles";
import type { SignupCounts } from "@/lib/domain/signups/counts";

/** "Export 1,234 rows as CSV" (how many it exports, once counted; "at least" when the count is a lower bound). */
export function ExportLink({ href, counts }: { href: string; counts: Promise<SignupCounts> }) {
  return (
    <Suspense fallback={<Link href={href} label="Export CSV" />}>
      <CountedLink href={href} counts={counts} />
    </Suspense>
  );
}

function CountedLink({ href, counts }: { href: string; counts: Promise<SignupCounts> }) {
  const { total, exact } = use(counts);
  return <Link href={href} label={`Export ${exact ? "" : "at least "}${formatCount(total)} ${total === 1 ? "row" : "rows"} as CSV`} />;
}

function Link({ href, label }: { href: string; label: string }) {
  return (
    <a href={href} download className={buttonClass} data-testid="export-csv">
      {label}
    </a>
  );
}
