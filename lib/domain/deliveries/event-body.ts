import "server-only";
import { z } from "zod";
import { EVENT_TYPES } from "../events";
import { signupWithFieldsSchema } from "../signups/response";
import { SIGNUP_STATUSES } from "../signups/status";

// What a webhook carries and the /v1 events feed lists: Standard Webhooks' {type, timestamp, data},
// `data` in the /v1 shapes. Written once, with the event (lib/domain/event-snapshot.ts), so a webhook
// and the feed carry the same bytes for the same event: a signup event names the waitlist and the
// signup as of the event (all eight fields); a signup erased since (and `signup.erased` itself) is
// only its id.

/** An `events` row as the bodies need it. */
export interface OutboxEvent {
  id: number;
  type: string;
  waitlistId: string;
  signupId: number | null;
  createdAt: number;
  /** The body as written with the event: the webhook's JSON, and the feed's item after its `id`. */
  body: string;
}

/** An event as the /v1 feed lists it: a webhook's body with its `webhook-id` as `id`. */
export const eventResponseSchema = z
  .strictObject({
    id: z.string().meta({ description: "The event's id, the same as a webhook's `webhook-id` header: deduplicate on it." }),
    type: z.enum(EVENT_TYPES).meta({ description: "What happened." }),
    timestamp: z.string().meta({ format: "date-time", description: "When it happened (ISO 8601 in UTC with milliseconds)." }),
    data: z
      .looseObject({
        waitlist_id: z.string().meta({ format: "uuid", description: "The waitlist it happened on." }),
        signup: signupWithFieldsSchema.optional().meta({
          description: "For `signup.*` events: the signup with all eight fields as of the event (written with it, the same in the feed and in every webhook); only its `id` once it is erased (and in `signup.erased`).",
        }),
        previous_status: z.enum(SIGNUP_STATUSES).optional().meta({ description: "For a status change: the status before it." }),
        imported: z.number().int().optional().meta({ description: "For `signups.imported`: how many signups the import added." }),
        skipped_duplicates: z.number().int().optional().meta({ description: "For `signups.imported`: how many rows were already on the list." }),
        format: z.string().optional().meta({ description: "For `signups.imported`: the file's format." }),
        milestone: z
          .strictObject({ referrals: z.number().int().meta({ description: "The counted referrals that reach it (the milestone's step)." }), label: z.string().meta({ description: "Its label as the admin named it." }) })
          .optional()
          .meta({ description: "For `signup.milestone_reached`: the milestone the signup reached (grant its reward)." }),
      })
      .meta({ description: "What it is about, in the shapes of this API." }),
  })
  .meta({ description: "An event: the body a webhook carries (`type`, `timestamp`, `data`) and its id." });

/** The `webhook-id` of an event: the same on every attempt and in the feed, so receivers deduplicate on it. */
export function eventMessageId(eventId: number): string {
  return `evt_${eventId}`;
}
