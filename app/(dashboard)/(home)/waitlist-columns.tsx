"use client";

import { createColumnHelper } from "@tanstack/react-table";
import Link from "next/link";
import { dataTableFeatures } from "@/components/data-table/data-table-features";
import { formatCount, formatDate, formatPercent } from "@/components/format";
import { linkClass, mutedText } from "@/components/styles";
import { WebsiteLink } from "@/components/website-link";
import type { WaitlistSummary } from "@/lib/domain/waitlists/queries";

const helper = createColumnHelper<typeof dataTableFeatures, WaitlistSummary>();

/** Column ids that can be sorted are the URL's `sort` values (WAITLIST_SUMMARY_SORTS). */
export const waitlistColumns = helper.columns([
  helper.accessor("name", {
    header: "Name",
    meta: { cellClassName: "max-w-xs break-words" },
    cell: (info) => (
      <Link href={`/waitlists/${info.row.original.id}`} className={`${linkClass} font-medium`}>
        {info.getValue()}
      </Link>
    ),
  }),
  helper.accessor("website", { header: "Website", enableSorting: false, cell: (info) => <WebsiteLink website={info.getValue()} /> }),
  helper.accessor("total", { header: "Signups", meta: { numeric: true }, cell: (info) => formatCount(info.getValue()) }),
  helper.accessor((row) => row.verified, {
    id: "verified",
    header: "Verified",
    meta: { numeric: true },
    cell: (info) => formatPercent(info.getValue(), info.row.original.total),
  }),
  helper.accessor((row) => row.referral, {
    id: "referral",
    header: "Referral",
    meta: { numeric: true },
    cell: (info) => formatPercent(info.getValue(), info.row.original.total),
  }),
  helper.accessor("newestSignupAt", {
    id: "newest",
    header: "Newest signup",
    cell: (info) => {
      const value = info.getValue();
      return value ? <time dateTime={value.toISOString()}>{formatDate(value)}</time> : <span className={mutedText}>None yet</span>;
    },
  }),
]);
