import "server-only";
import { z } from "zod";
import { invalidParameter } from "@/lib/core/errors";
import { limitParam } from "@/lib/domain/limit-param";
import { parseSignupFilterValues } from "@/lib/domain/list-params";
import { filterToApiParams, type SignupFilter } from "@/lib/domain/signups/filter";
import { signupFilterParamsShape } from "@/lib/domain/signups/filter-params";
import { parseSignupPublicId, signupPublicId } from "@/lib/domain/signups/id";
import { MAX_ACTION_LIMIT } from "@/lib/domain/signups/status";
import type { StatusSelection } from "@/lib/domain/signups/transitions";
import { safeReturnPath } from "./return-path";

// Which signups a dashboard status action names, as its confirmation page's URL and its form carry
// them: `ids` (rows selected on a page: repeated, as checkboxes send them, or comma-separated), or
// the list's filters under their /v1 names with an optional `limit` ("invite the next N"; without
// it, every signup the filters match), plus `return`, the page to go back to. Parsed strictly, like
// /v1: a bad or unknown value is an error that names it, never a wider selection.

/** The most rows one selection names (a page holds at most 100). */
export const MAX_SELECTED_IDS = 1_000;

const filterSchema = z.strictObject({
  ...signupFilterParamsShape,
  limit: limitParam(MAX_ACTION_LIMIT, `must be a whole number from 1 to ${MAX_ACTION_LIMIT.toLocaleString("en-US")}`).optional(),
});

export interface DashboardStatusSelection {
  selection: StatusSelection;
  /** The filter of a filter selection (undefined for selected rows). */
  filter?: SignupFilter;
  /** "The next N" (undefined: every match, or selected rows). */
  limit?: number;
  /** The selected rows' ids (undefined for a filter). */
  ids?: number[];
  /** Where to go afterwards: a page of this waitlist. */
  returnTo: string;
  /** The same selection as one form's fields (the confirmation's hidden inputs). */
  fields: Record<string, string>;
}

function parseIds(texts: string[]): number[] {
  const parts = texts.flatMap((text) => text.split(",")).map((part) => part.trim()).filter((part) => part !== "");
  if (parts.length === 0) throw invalidParameter("ids", "No signups are selected: select rows in the table first.");
  if (parts.length > MAX_SELECTED_IDS) throw invalidParameter("ids", `At most ${MAX_SELECTED_IDS.toLocaleString("en-US")} signups can be selected at once: select all matching instead.`);
  return [
    ...new Set(
      parts.map((part) => {
        const id = parseSignupPublicId(part);
        if (id === undefined) throw invalidParameter("ids", `"${part.slice(0, 32)}" is not a signup id.`);
        return id;
      }),
    ),
  ];
}

/** `return`, when it is a page of this waitlist; else the waitlist's page. */
function returnPath(waitlistId: string, text: string | undefined): string {
  const home = `/waitlists/${waitlistId}`;
  const path = safeReturnPath(text);
  return path === home || path.startsWith(`${home}?`) || path.startsWith(`${home}/`) ? path : home;
}

/** Parses a selection from a page's search params or a form's fields (name, value pairs). */
export function parseStatusSelection(waitlistId: string, entries: Iterable<[string, string]>): DashboardStatusSelection {
  const ids: string[] = [];
  const values: Record<string, string> = {};
  let returnText: string | undefined;
  for (const [name, value] of entries) {
    if (name === "ids") ids.push(value);
    else if (name === "return") returnText = value;
    else if (Object.hasOwn(values, name)) throw invalidParameter(name, `The parameter "${name}" is given more than once.`);
    else values[name] = value;
  }
  const returnTo = returnPath(waitlistId, returnText);
  if (ids.length > 0) {
    const extra = Object.keys(values)[0];
    if (extra !== undefined) throw invalidParameter(extra, `The parameter "${extra}" cannot be combined with selected rows: name the signups either by rows or by a filter.`);
    const parsed = parseIds(ids);
    return { selection: { waitlistId, ids: parsed }, ids: parsed, returnTo, fields: { ids: parsed.map(signupPublicId).join(","), return: returnTo } };
  }
  const { parsed, filter } = parseSignupFilterValues(values, filterSchema);
  const limit = parsed.limit;
  const fields = { ...Object.fromEntries(filterToApiParams(filter)), ...(limit === undefined ? {} : { limit: String(limit) }), return: returnTo };
  return { selection: { scope: { ...filter, waitlistId }, limit: limit ?? -1 }, filter, limit, returnTo, fields };
}

/** A page's search params as name, value pairs (repeated names kept). */
export function searchParamEntries(searchParams: Record<string, string | string[] | undefined>): [string, string][] {
  return Object.entries(searchParams).flatMap(([name, value]) => (value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((one): [string, string] => [name, one])));
}
