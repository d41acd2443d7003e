import "server-only";
import { z } from "zod";
import type { Waitlist } from "@/db/schema";

// The API's view of a waitlist: exactly the fields of the specification. The OpenAPI component
// and the TypeScript type both come from this schema.

export const waitlistResponseSchema = z
  .strictObject({
    id: z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/).meta({ format: "uuid", description: "Lowercase UUID." }),
    name: z.string().min(1).meta({ description: "The waitlist's name." }),
    website: z.string().meta({ format: "uri", description: "An absolute http or https URL." }),
  })
  .meta({ description: "A waitlist: exactly these three fields." });
export type WaitlistResponse = z.infer<typeof waitlistResponseSchema>;

export function toWaitlistResponse(row: Waitlist): WaitlistResponse {
  return { id: row.id, name: row.name, website: row.website };
}
