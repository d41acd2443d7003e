/** A page's search params as Next.js gives them. */
export type PageSearchParams = Record<string, string | string[] | undefined>;

/** The first value of each parameter, as the dashboard reads its URL state. */
export function firstValues(searchParams: PageSearchParams): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(searchParams).map(([name, value]) => [name, Array.isArray(value) ? value[0] : value]));
}
