import { instantParamValue, parseInstant } from "@/lib/core/instant";
import { DAY_MS } from "@/lib/core/time";
import { SIGNUP_FILTERS } from "@/lib/domain/signups/filter";

// Until issue 20 the waitlist page named its filters `from`, `to` (a day, included) and `q`; they are
// /v1's names now. Old bookmarks, and the date and search forms submitted without JavaScript (whose
// inputs are days and a bare search), get a permanent redirect to the same filters under the new names.

const WAITLIST_PAGE = /^\/waitlists\/[^/]+(?:\/export)?$/;

/** A `to` day as the instant that ends it: the next midnight (UTC). */
function dayEnd(day: string): string {
  const start = /^\d{4}-\d{2}-\d{2}$/.test(day) ? parseInstant(day) : undefined;
  return start ? instantParamValue(new Date(start.getTime() + DAY_MS)) : day;
}

const RENAMED: Record<string, { name: string; value: (text: string) => string }> = {
  from: { name: SIGNUP_FILTERS.createdSince.name, value: (text) => text },
  to: { name: SIGNUP_FILTERS.createdUntil.name, value: dayEnd },
  q: { name: SIGNUP_FILTERS.emailContains.name, value: (text) => text },
};

/**
 * The query under the new names when a waitlist page's (or its export's) query uses an old one, else
 * undefined. Other parameters keep their places; an empty old one is dropped, and a new name already
 * present wins over its old one.
 */
export function renamedFilterQuery(pathname: string, search: URLSearchParams): URLSearchParams | undefined {
  if (!WAITLIST_PAGE.test(pathname) || !Object.keys(RENAMED).some((name) => search.has(name))) return undefined;
  const renamed = new URLSearchParams();
  for (const [name, value] of search) {
    const rename = Object.hasOwn(RENAMED, name) ? RENAMED[name]! : undefined;
    if (!rename) renamed.append(name, value);
    else if (value !== "" && !search.has(rename.name) && !renamed.has(rename.name)) renamed.append(rename.name, rename.value(value));
  }
  return renamed;
}
