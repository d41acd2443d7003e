"use client";

import { createColumnHelper } from "@tanstack/react-table";
import { createContext, use, useEffect, useRef } from "react";
import { dataTableFeatures } from "@/components/data-table/data-table-features";
import { formatCount, formatDate, formatDateTime } from "@/components/format";
import { focusRing, mutedText } from "@/components/styles";
import { STATUS_LABELS } from "@/lib/domain/signups/status";
import { signupPublicId } from "@/lib/domain/signups/id";
import { BULK_FORM_ID } from "./bulk-actions";
import type { SignupListRow } from "./signup-list-row";

const helper = createColumnHelper<typeof dataTableFeatures, SignupListRow>();

/** Opens the detail view of a signup, and names its page; the table provides both. */
export const SignupLinks = createContext<{ open: (signup: SignupListRow) => void; pageHref: (signup: SignupListRow) => string }>({ open: () => {}, pageHref: () => "#" });

/** A link to the signup's page: a plain click opens the details dialog instead, a modified or middle click follows the link. */
function EmailCell({ signup }: { signup: SignupListRow }) {
  const { open, pageHref } = use(SignupLinks);
  return (
    <a
      href={pageHref(signup)}
      aria-haspopup="dialog"
      // A long address is cut (its title and the dialog hold it whole), so the signup time stays in the frame.
      title={signup.email}
      className={`${focusRing} break-all rounded-sm font-medium text-blue-700 underline-offset-2 hover:underline md:inline-block md:max-w-[16rem] md:truncate md:align-bottom md:break-normal dark:text-blue-400`}
      onClick={(event) => {
        event.stopPropagation();
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        open(signup);
      }}
    >
      {signup.email}
    </a>
  );
}

/** "Yes"/"No" under its column's header; on a phone's card, where there is no header, the flag's own words. */
function YesNo({ value, yes, no }: { value: boolean; yes: string; no: string }) {
  const className = value
    ? "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200"
    : "bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300";
  return (
    <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ${className}`}>
      <span className="max-md:hidden">{value ? "Yes" : "No"}</span>
      <span className="md:hidden">{value ? yes : no}</span>
    </span>
  );
}

const STATUS_BADGE: Record<SignupListRow["status"], string> = {
  waiting: "bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300",
  invited: "bg-blue-100 text-blue-900 dark:bg-blue-950 dark:text-blue-200",
  completed: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200",
  rejected: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
};

/** The status, and for an invited signup when its invitation expires ("expires in 3 days"). */
function StatusBadge({ status, expiry }: { status: SignupListRow["status"]; expiry: string | null }) {
  const badge = <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_BADGE[status]}`}>{STATUS_LABELS[status]}</span>;
  if (expiry === null) return badge;
  return (
    <span className="inline-flex flex-col items-start gap-0.5">
      {badge}
      <span data-testid="invitation-expiry" className={`whitespace-nowrap text-xs ${mutedText}`}>
        {expiry}
      </span>
    </span>
  );
}

/** "Select all N matching" is on: the checked rows stand for the filters, and submit no ids of their own. */
export const AllMatching = createContext(false);

/** A checkbox that can show "some selected" (`indeterminate` is a property, not an attribute). */
function Checkbox({ indeterminate = false, ...props }: React.InputHTMLAttributes<HTMLInputElement> & { indeterminate?: boolean }) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = indeterminate;
  }, [indeterminate]);
  return <input ref={ref} type="checkbox" className={`${focusRing} size-4 cursor-pointer rounded-sm accent-blue-700`} {...props} />;
}

function CustomInputsSummary({ inputs }: { inputs: SignupListRow["customInputs"] }) {
  const first = inputs.entries[0];
  // A card on a phone leaves out the dash: an empty line says nothing.
  if (!first) return <span className={`${mutedText} max-md:hidden`}>—</span>;
  // The cell shows one line (CSS cuts it further); the dialog shows the rest.
  const text = `${first.key}${first.keyCut === undefined ? "" : "…"}: ${first.structured ? "{…}" : first.value}${first.valueCut === undefined ? "" : "…"}`;
  return (
    <span className="block max-w-[10rem] truncate 2xl:max-w-[22rem]" title={text}>
      {text}
      {inputs.total > 1 ? <span className={mutedText}> +{formatCount(inputs.total - 1)} more</span> : null}
    </span>
  );
}

// On a phone each row is a card and the header a line of sort links: the others are read out only.
const PHONE_HIDDEN_HEADER = "max-md:sr-only";

/** Column ids that can be sorted are the URL's `sort` values (SIGNUP_SORTS). */
export const signupColumns = helper.columns([
  helper.accessor("email", { header: "Email", enableHiding: false, meta: { cellClassName: "max-md:min-w-0 max-md:basis-[calc(100%-2rem)] max-md:grow" }, cell: (info) => <EmailCell signup={info.row.original} /> }),
  helper.accessor("verified", {
    header: "Verified",
    enableSorting: false,
    meta: { headerClassName: PHONE_HIDDEN_HEADER },
    cell: (info) => <YesNo value={info.getValue()} yes="Verified" no="Unverified" />,
  }),
  helper.accessor("referral", {
    header: "Referral",
    enableSorting: false,
    meta: { headerClassName: PHONE_HIDDEN_HEADER },
    cell: (info) => <YesNo value={info.getValue()} yes="Referral" no="No referral" />,
  }),
  helper.accessor("status", {
    header: "Status",
    enableSorting: false,
    meta: { headerClassName: PHONE_HIDDEN_HEADER },
    cell: (info) => <StatusBadge status={info.getValue()} expiry={info.row.original.invitationExpiry} />,
  }),
  helper.accessor("customInputs", {
    id: "custom_inputs",
    header: "Custom inputs",
    enableSorting: false,
    meta: { headerClassName: PHONE_HIDDEN_HEADER, cellClassName: "max-md:order-last max-md:basis-full max-md:text-xs" },
    cell: (info) => <CustomInputsSummary inputs={info.getValue()} />,
  }),
  helper.accessor("position", {
    header: "Place",
    sortDescFirst: false,
    // A phone's card keeps to two lines (the first signups in the first screen): its header stays a sort link, sorting by the line.
    meta: { cellClassName: "max-md:hidden tabular-nums" },
    // Only waiting signups stand in line.
    cell: (info) => {
      const place = info.getValue();
      return place === null ? <span className={mutedText}>—</span> : <span className="whitespace-nowrap">{`#${formatCount(place)}`}</span>;
    },
  }),
  helper.accessor("createdAt", {
    id: "created_at",
    header: "Signed up (UTC)",
    meta: { cellClassName: "max-md:ml-auto max-md:text-xs" },
    cell: (info) => (
      // A phone's card shows the day only: the flags, the status and the day share one line.
      <time className="whitespace-nowrap" dateTime={info.getValue().toISOString()} title={`${formatDateTime(info.getValue())} UTC`}>
        <span className="md:hidden">{formatDate(info.getValue())}</span>
        <span className="max-md:hidden">{formatDateTime(info.getValue())}</span>
      </time>
    ),
  }),
]);

/**
 * The admin's checkbox column: the header checks the page, each row's box submits its id with the
 * bulk actions' form. Clicks stay in the cell (a row click opens the details).
 */
export const selectColumn = helper.display({
  id: "select",
  enableSorting: false,
  enableHiding: false,
  meta: { headerClassName: "w-10", cellClassName: "w-10 max-md:w-auto max-md:order-first" },
  header: ({ table }) => (
    <Checkbox
      aria-label="Select every signup on this page"
      checked={table.getIsAllPageRowsSelected()}
      indeterminate={table.getIsSomePageRowsSelected() && !table.getIsAllPageRowsSelected()}
      onChange={table.getToggleAllPageRowsSelectedHandler()}
    />
  ),
  cell: ({ row }) => <RowCheckbox signup={row.original} checked={row.getIsSelected()} onChange={row.getToggleSelectedHandler()} />,
});

function RowCheckbox({ signup, checked, onChange }: { signup: SignupListRow; checked: boolean; onChange: (event: unknown) => void }) {
  const allMatching = use(AllMatching);
  return (
    <Checkbox
      form={BULK_FORM_ID}
      name={allMatching ? undefined : "ids"}
      value={signupPublicId(signup.id)}
      aria-label={`Select ${signup.email}`}
      checked={checked}
      onChange={onChange}
      onClick={(event) => event.stopPropagation()}
    />
  );
}
