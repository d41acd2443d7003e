"use client";

import { Suspense, use } from "react";
import { formatCount } from "@/components/format";
import { buttonClass } from "@/components/styles";
import type { SignupCounts } from "@/lib/domain/signups/counts";

/** "Export 1,234 rows as CSV" (how many it exports, once counted; "at least" when the count is a lower bound). */
export function ExportLink({ href, counts }: { href: string; counts: Promise<SignupCounts> }) {
  return (
    <Suspense fallback={<Link href={href} detail="CSV" />}>
      <CountedLink href={href} counts={counts} />
    </Suspense>
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
