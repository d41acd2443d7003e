import { DAY_MS } from "@/lib/core/time";
import { filterToApiParams, type SignupFilter } from "@/lib/domain/signups/filter";
import { BIGGEST_COMPANY_NAME } from "./people";

// The dashboard views the benchmark times: one per filter, and all of them together. Each is a
// SignupFilter, from which the benchmark finds the row the page must show; the page's URL says the
// same in the filters' public names (the dashboard's and /v1's).

export interface DashboardView {
  name: string;
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
  return { label: `${isoDay(since)} to ${isoDay(lastDay)}`, createdSince: new Date(since), createdUntil: new Date(lastDay + DAY_MS) };
}

export function dashboardViews({ sampleEmail, spanEnd }: { sampleEmail: string; spanEnd: number }): DashboardView[] {
  const { label, createdSince, createdUntil } = dateRange(spanEnd);
  return [
    { name: "no filter", filter: {} },
    { name: "verified", filter: { verified: true } },
    { name: "referral", filter: { referral: true } },
    { name: `date range (${label})`, filter: { createdSince, createdUntil } },
    { name: `input role=${ROLE}`, filter: { inputs: [{ label: "role", value: ROLE }] } },
    { name: `input company=${BIGGEST_COMPANY_NAME}`, filter: { inputs: [{ label: "company", value: BIGGEST_COMPANY_NAME }] } },
    { name: "email, full address", filter: { emailContains: sampleEmail } },
    { name: `email contains "${COMMON_FRAGMENT}"`, filter: { emailContains: COMMON_FRAGMENT } },
    {
      name: "all of them together",
      filter: { verified: true, referral: true, createdSince, createdUntil, inputs: [{ label: "role", value: ROLE }], emailContains: COMMON_FRAGMENT },
    },
  ];
}

/**
 * The four views with a search that the load scenario loops over, each with a fresh fragment on
 * every request (so no count is ever remembered from an earlier one).
 */
export function searchLoadViews(spanEnd: number): SignupFilter[] {
  const { createdSince, createdUntil } = dateRange(spanEnd);
  return [{}, { verified: true }, { inputs: [{ label: "role", value: ROLE }] }, { createdSince, createdUntil }];
}

export function dashboardPath(waitlistId: string, filter: SignupFilter): string {
  const query = filterToApiParams(filter).toString();
  return `/waitlists/${waitlistId}${query ? `?${query}` : ""}`;
}
