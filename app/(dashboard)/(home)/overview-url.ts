import type { WaitlistTableParams } from "@/lib/dashboard/waitlist-table";

// Only non-default values go into the URL, so shared links stay short.
export function overviewHref(state: WaitlistTableParams): string {
  const search = new URLSearchParams();
  if (state.q) search.set("q", state.q);
  if (state.sort !== "name") search.set("sort", state.sort);
  if (state.dir !== "asc") search.set("dir", state.dir);
  const query = search.toString();
  return query ? `/?${query}` : "/";
}
