import type { SignupFilter } from "@/lib/domain/signups/filter";
import type { SignupScope } from "@/lib/domain/signups/queries";

/**
 * A filter as today's query layer takes it. Until issue 11's query layer lands, it knows only
 * verified, referral and `search` (an email substring), and ignores the rest, as the dashboard does.
 */
export function queryScope(waitlistId: string, filter: SignupFilter): SignupScope {
  return { waitlistId, ...filter, search: filter.emailContains ?? filter.email };
}
