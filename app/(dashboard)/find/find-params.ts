import { z } from "zod";
import { MAX_FILTER_TEXT } from "@/lib/domain/signups/filter";

/** Text shorter than this is looked up as a whole address only: a shorter substring matches too much to be useful. */
export const MIN_CONTAINS_LENGTH = 3;
/** How many signups each lookup lists. */
export const FIND_LIMIT = 100;

const findParamsSchema = z.object({
  email: z.string().trim().max(MAX_FILTER_TEXT).optional().catch(undefined).transform((text) => text || undefined),
});

/** The finder's text from its URL (`/find?email=`): trimmed, empty or too long means none. */
export function parseFindParams(searchParams: Record<string, string | string[] | undefined>): string | undefined {
  const email = searchParams.email;
  return findParamsSchema.parse({ email: Array.isArray(email) ? email[0] : email }).email;
}
