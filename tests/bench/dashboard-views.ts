import { DAY_MS } from "@/lib/core/time";
import type { SignupFilter } from "@/lib/domain/signups/filter";
import { BIGGEST_COMPANY_NAME } from "./people";

// The dashboard views the benchmark times: one per filter, and all of them together. Each is the
// page's URL query and the same selection as a SignupFilter, from which the benchmark finds the
// row the page must show.

export interface DashboardView {
  name: string;
  /** The dashboard's URL parameters (issue 11: verified, referral, from, to, input.<label>, q). */
  params: Record<string, string>;
  filter: SignupFilter;
}

/** A fragment of three letters in about one address in twenty (a first name, a surname, a domain). */
export const COMMON_FRAGMENT = "ana";
export const ROLE = "Engineer";

const isoDay = (instant: number) => new Date(instant).toISOString().slice(0, 10);

/** A month of signups ending three months before the dataset does: "who signed up in August?". */
export function dateRange(spanEnd: number) {
  const since = spanEnd - 120 * DAY_MS;
  const lastDay = spanEnd - 91 * DAY_MS;
  return { from: isoDay(since), to: isoDay(lastDay), createdSince: new Date(since), createdUntil: new Date(lastDay + DAY_MS) };
}

export function dashboardViews({ sampleEmail, spanEnd }: { sampleEmail: string; spanEnd: number }): DashboardView[] {
  const { from, to, createdSince, createdUntil } = dateRange(spanEnd);
  return [
    { name: "no filter", params: {}, filter: {} },
    { name: "verified", params: { verified: "true" }, filter: { verified: true } },
    { name: "referral", params: { referral: "true" }, filter: { referral: true } },
    { name: `date range (${from} to ${to})`, params: { from, to }, filter: { createdSince, createdUntil } },
    { name: `input role=${ROLE}`, params: { "input.role": ROLE }, filter: { inputs: [{ label: "role", value: ROLE }] } },
    { name: `input company=${BIGGEST_COMPANY_NAME}`, params: { "input.company": BIGGEST_COMPANY_NAME }, filter: { inputs: [{ label: "company", value: BIGGEST_COMPANY_NAME }] } },
    { name: "email, full address", params: { q: sampleEmail }, filter: { emailContains: sampleEmail } },
    { name: `email contains "${COMMON_FRAGMENT}"`, params: { q: COMMON_FRAGMENT }, filter: { emailContains: COMMON_FRAGMENT } },
    {
      name: "all of them together",
      params: { verified: "true", referral: "true", from, to, "input.role": ROLE, q: COMMON_FRAGMENT },
      filter: { verified: true, referral: true, createdSince, createdUntil, inputs: [{ label: "role", value: ROLE }], emailContains: COMMON_FRAGMENT },
    },
  ];
}

/**
 * The four views with a search that the load scenario loops over, each with a fresh fragment on
 * every request (so no count is ever remembered from an earlier one).
 */
export function searchLoadViews(spanEnd: number): Record<string, string>[] {
  const { from, to } = dateRange(spanEnd);
  return [{}, { verified: "true" }, { "input.role": ROLE }, { from, to }];
}

export function dashboardPath(waitlistId: string, params: Record<string, string>): string {
  const query = new URLSearchParams(params).toString();
  return `/waitlists/${waitlistId}${query ? `?${query}` : ""}`;
}
