import { cache } from "react";
import { isWaitlistId } from "@/lib/domain/waitlists/id";
import { getWaitlist } from "@/lib/domain/waitlists/queries";

/** The waitlist of a path segment, once per request; malformed ids never reach the database. */
export const findWaitlist = cache(async (id: string) => (isWaitlistId(id) ? await getWaitlist(id) : undefined));
