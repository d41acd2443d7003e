import { filterToApiParams } from "@/lib/domain/signups/filter";
import type { SignupTableParams } from "./signup-table";
import { dayRange, tableFilter } from "./signup-table-url";

const MAX_PART = 40;

/** Letters and digits of `text`, lower case, the rest as single dashes: safe in a file name on every system. */
function slug(text: string, max = MAX_PART): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .toLowerCase()
    .slice(0, max)
    .replace(/-+$/, "");
}

/**
 * The CSV export's file name, saying what it holds: the waitlist, each filter (`verified`, `not-referral`,
 * `email-contains-acme`, `company-acme`), then the date range (`2026-11-01..2026-11-22`), or the
 * day of the export when no range is set: `acme-verified-2026-11-01..2026-11-22.csv`.
 */
export function exportFileName(waitlistName: string, state: SignupTableParams, today = new Date()): string {
  const parts = [...filterToApiParams(tableFilter({ ...state, createdSince: undefined, createdUntil: undefined }))].map(([name, value]) => {
    const label = name.replace(/^input\./, "");
    return value === "true" ? slug(label) : value === "false" ? `not-${slug(label)}` : `${slug(label)}-${slug(value)}`;
  });
  const { from, to } = dayRange(state);
  const days = from || to ? `${from ?? ""}..${to ?? ""}` : today.toISOString().slice(0, 10);
  const name = [slug(waitlistName, 60) || "waitlist", ...(parts.length > 0 ? parts : ["signups"])].join("-").slice(0, 160).replace(/-+$/, "");
  return `${name}-${days}.csv`;
}
