import type { SignupTableParams } from "@/lib/domain/list-params";
import { DAY_MS } from "@/lib/core/time";
import { parseInstant, type SignupScope } from "./filter";

// The dashboard URL's state as the filter model. Client components build the API box from it, so
// it imports list-params for its type only (see the note at the top of filter.ts).

/** The signups a dashboard state selects (sort and page aside): `to` includes that whole day. */
export function dashboardFilter(state: SignupTableParams): Omit<SignupScope, "waitlistId"> {
  return {
    verified: state.verified,
    referral: state.referral,
    createdSince: state.from ? parseInstant(state.from) : undefined,
    createdUntil: state.to ? new Date(parseInstant(state.to)!.getTime() + DAY_MS) : undefined,
    emailContains: state.q,
    inputs: state.inputs.length > 0 ? state.inputs : undefined,
  };
}

/** The scope of a waitlist page, its CSV export and the API box. */
export function dashboardScope(waitlistId: string, state: SignupTableParams): SignupScope {
  return { waitlistId, ...dashboardFilter(state) };
}
