import { cache } from "react";
import { parseSignupPublicId } from "@/lib/domain/signups/id";
import { getSignup } from "@/lib/domain/signups/queries";

/** The signup of a path, once per request; a malformed id never reaches the database. */
export const findSignup = cache(async (waitlistId: string, publicId: string) => {
  const id = parseSignupPublicId(publicId);
  return id === undefined ? undefined : await getSignup(waitlistId, id);
});
