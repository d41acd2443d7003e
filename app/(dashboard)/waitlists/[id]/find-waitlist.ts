import { cache } from "react";
import { isWaitlistId } from "@/lib/waitlist-id";
import { getWaitlist } from "@/lib/waitlists";

/** The waitlist of a path segment, once per request; malformed ids never reach the database. */
export const findWaitlist = cache((id: string) => (isWaitlistId(id) ? getWaitlist(id) : undefined));
