import "server-only";
import { z } from "zod";
import { getDb, type AppDatabase } from "@/db/client";
import { EVENT_TYPES } from "../events";
import { signupPublicId } from "../signups/id";
import { getSignup } from "../signups/queries";
import { signupWithFieldsSchema, toSignupResponse } from "../signups/response";
import { SIGNUP_STATUSES, type SignupStatus } from "../signups/status";

// What a webhook carries and the /v1 events feed lists: Standard Webhooks' {type, timestamp, data},
// `data` in the /v1 shapes. A signup event names the waitlist and the signup as `fields` can show it
// (all eight fields), its status and status_changed_at as of the event; a signup erased since (and
// `signup.erased` itself) is only its id. The outbox row holds no address: it is read from the
// signup when the body is made.

/** An `events` row as the bodies need it. */
export interface OutboxEvent {
  id: number;
  type: string;
  waitlistId: string;
  signupId: number | null;
  createdAt: number;
  payload: string;
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
          description: "For `signup.*` events: the signup with all eight fields, its status and `status_changed_at` as of the event; only its `id` once it is erased (and in `signup.erased`).",
        }),
        previous_status: z.enum(SIGNUP_STATUSES).optional().meta({ description: "For a status change: the status before it." }),
        imported: z.number().int().optional().meta({ description: "For `signups.imported`: how many signups the import added." }),
        skipped_duplicates: z.number().int().optional().meta({ description: "For `signups.imported`: how many rows were already on the list." }),
        format: z.string().optional().meta({ description: "For `signups.imported`: the file's format." }),
      })
      .meta({ description: "What it is about, in the shapes of this API." }),
  })
  .meta({ description: "An event: the body a webhook carries (`type`, `timestamp`, `data`) and its id." });

export interface EventBody {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** The `webhook-id` of an event: the same on every attempt and in the feed, so receivers deduplicate on it. */
export function eventMessageId(eventId: number): string {
  return `evt_${eventId}`;
}

export function eventBody(event: OutboxEvent, db: AppDatabase = getDb()): EventBody {
  const payload = JSON.parse(event.payload) as Record<string, unknown>;
  const timestamp = new Date(event.createdAt).toISOString();
  if (event.signupId === null) return { type: event.type, timestamp, data: { waitlist_id: event.waitlistId, ...payload } };
  const id = signupPublicId(event.signupId);
  const row = event.type === "signup.erased" ? undefined : getSignup(event.waitlistId, event.signupId, db);
  if (!row) return { type: event.type, timestamp, data: { waitlist_id: event.waitlistId, signup: { id } } };
  const { from, to } = payload as { from?: SignupStatus; to?: SignupStatus };
  const signup = {
    ...toSignupResponse(row),
    created_at: row.createdAt.toISOString(),
    id,
    status: to ?? row.status,
    status_changed_at: to === undefined ? (row.statusChangedAt?.toISOString() ?? null) : timestamp,
  };
  return { type: event.type, timestamp, data: { waitlist_id: event.waitlistId, signup, ...(from === undefined ? {} : { previous_status: from }) } };
}
