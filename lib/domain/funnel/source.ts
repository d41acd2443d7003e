import { unsafeCharacterIn } from "@/lib/core/single-line-text";

// Where a signup came from, given at join: the page's `utm_source`, `utm_medium` and `utm_campaign`
// (from its URL) and the referring site (the host of the page's Referer), or the same four fields of
// POST /v1/waitlist/{id}/signup. Short single-line text, stored as given (trimmed); a referrer given
// as a URL is kept as its host. No database or zod import: the filter descriptors use these too.

/** The longest value of a source field. */
export const MAX_SOURCE_TEXT = 100;

/** The four fields, by their /v1 names (also the filters', the facets' and `fields=`'s). */
export const SOURCE_FIELDS = ["utm_source", "utm_medium", "utm_campaign", "referrer"] as const;
export type SourceField = (typeof SOURCE_FIELDS)[number];

/** A signup's source fields; absent ones are unknown (a direct visit, an import). */
export type SignupSource = Partial<Record<SourceField, string>>;

/** A source field's text as stored, or why not (the rest of "… "): undefined when empty. */
export function sourceValue(field: SourceField, text: string): { ok: true; value: string | undefined } | { ok: false; message: string } {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: true, value: undefined };
  const unsafe = unsafeCharacterIn(trimmed);
  if (unsafe) return { ok: false, message: `contains ${unsafe}: it must be one line of plain text` };
  const value = field === "referrer" ? (hostOf(trimmed) ?? trimmed.toLowerCase()) : trimmed;
  if (value.length > MAX_SOURCE_TEXT) return { ok: false, message: `is longer than ${MAX_SOURCE_TEXT} characters` };
  return { ok: true, value };
}

/** The host of an http(s) URL (lower case, without a port's default), or undefined for any other text. */
export function hostOf(text: string): string | undefined {
  if (!/^https?:\/\//i.test(text)) return undefined;
  try {
    return new URL(text).host.toLowerCase() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The source of a join page's view, read leniently (a bad value is left out, never refused: the page
 * must show): the query's utm_* parameters, and the Referer's host unless it is this site's own.
 */
export function sourceOfPageView(query: Record<string, string | string[] | undefined>, referer: string | null, ownHost: string | null): SignupSource {
  const source: SignupSource = {};
  for (const field of SOURCE_FIELDS) {
    if (field === "referrer") continue;
    const text = query[field];
    if (typeof text !== "string") continue;
    const parsed = sourceValue(field, text);
    if (parsed.ok && parsed.value !== undefined) source[field] = parsed.value;
  }
  const host = referer === null ? undefined : hostOf(referer);
  if (host !== undefined && host !== ownHost?.toLowerCase() && host.length <= MAX_SOURCE_TEXT) source.referrer = host;
  return source;
}

/** A form's or a body's source fields read leniently: each valid one kept, the others left out. */
export function lenientSource(values: Partial<Record<SourceField, unknown>>): SignupSource {
  const source: SignupSource = {};
  for (const field of SOURCE_FIELDS) {
    const text = values[field];
    if (typeof text !== "string") continue;
    const parsed = sourceValue(field, text);
    if (parsed.ok && parsed.value !== undefined) source[field] = parsed.value;
  }
  return source;
}
