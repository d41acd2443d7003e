"use client";

import { createColumnHelper } from "@tanstack/react-table";
import { createContext, use } from "react";
import { dataTableFeatures } from "@/components/data-table/data-table-features";
import { formatCount, formatDateTime } from "@/components/format";
import { focusRing, mutedText } from "@/components/styles";
import type { SignupListRow } from "./signup-list-row";

const helper = createColumnHelper<typeof dataTableFeatures, SignupListRow>();

/** Opens the detail view of a signup; the table provides it. */
export const OpenSignupDetails = createContext<(signup: SignupListRow) => void>(() => {});

function EmailCell({ signup }: { signup: SignupListRow }) {
  const open = use(OpenSignupDetails);
  return (
    <button
      type="button"
      aria-haspopup="dialog"
      className={`${focusRing} whitespace-nowrap rounded-sm text-left font-medium text-blue-700 underline-offset-2 hover:underline dark:text-blue-400`}
      onClick={(event) => {
        event.stopPropagation();
        open(signup);
      }}
    >
      {signup.email}
    </button>
  );
}

function YesNo({ value }: { value: boolean }) {
  return value ? (
    <span className="inline-flex rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200">Yes</span>
  ) : (
    <span className="inline-flex rounded-full bg-zinc-100 px-2 py-0.5 text-xs font-medium text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">No</span>
  );
}

function CustomInputsSummary({ inputs }: { inputs: SignupListRow["customInputs"] }) {
  const first = inputs.entries[0];
  if (!first) return <span className={mutedText}>—</span>;
  // The cell shows one line (CSS cuts it further); the dialog shows the rest.
  const text = `${first.key}${first.keyCut === undefined ? "" : "…"}: ${first.structured ? "{…}" : first.value}${first.valueCut === undefined ? "" : "…"}`;
  return (
    <span className="block max-w-[22rem] truncate" title={text}>
      {text}
      {inputs.total > 1 ? <span className={mutedText}> +{formatCount(inputs.total - 1)} more</span> : null}
    </span>
  );
}

/** Column ids that can be sorted are the URL's `sort` values (SIGNUP_SORTS). */
export const signupColumns = helper.columns([
  helper.accessor("email", { header: "Email", enableHiding: false, cell: (info) => <EmailCell signup={info.row.original} /> }),
  helper.accessor("verified", { header: "Verified", enableSorting: false, cell: (info) => <YesNo value={info.getValue()} /> }),
  helper.accessor("referral", { header: "Referral", enableSorting: false, cell: (info) => <YesNo value={info.getValue()} /> }),
  helper.accessor("customInputs", {
    id: "custom_inputs",
    header: "Custom inputs",
    enableSorting: false,
    cell: (info) => <CustomInputsSummary inputs={info.getValue()} />,
  }),
  helper.accessor("createdAt", {
    id: "created_at",
    header: "Signed up (UTC)",
    cell: (info) => (
      <time className="whitespace-nowrap" dateTime={info.getValue().toISOString()}>
        {formatDateTime(info.getValue())}
      </time>
    ),
  }),
]);
