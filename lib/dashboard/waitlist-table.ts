import "server-only";
import { z } from "zod";
import { SORT_DIRECTIONS, WAITLIST_SUMMARY_SORTS } from "@/lib/domain/sorting";
import { firstValues, type PageSearchParams } from "./search-params";

/** The dashboard's search box: trimmed, empty means none, too long falls back to none. */
export const searchField = z.string().trim().max(200).optional().catch(undefined).transform((q) => q || undefined);

/** The dashboard's waitlists overview state, as it lives in the URL. Invalid values fall back to defaults. */
export const waitlistTableParamsSchema = z.object({
  q: searchField,
  sort: z.enum(WAITLIST_SUMMARY_SORTS).catch("name"),
  dir: z.enum(SORT_DIRECTIONS).catch("asc"),
});
export type WaitlistTableParams = z.infer<typeof waitlistTableParamsSchema>;

export function parseWaitlistTableParams(searchParams: PageSearchParams): WaitlistTableParams {
  return waitlistTableParamsSchema.parse(firstValues(searchParams));
}
