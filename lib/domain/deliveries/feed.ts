import "server-only";
import { getDb, type AppDatabase } from "@/db/client";
import type { Position } from "@/lib/sqlite/keyset";
import { preparedOnce } from "@/lib/sqlite/statements";
import { eventBody, eventMessageId, type EventBody, type OutboxEvent } from "./event-body";

// GET /v1/waitlist/{id}/events: a waitlist's events oldest first, in keyset pages, each the body a
// webhook carries with its `webhook-id` as `id`, for clients that poll instead of receiving webhooks.
// The feed has no end: every page gives where to go on from (after its last event, or where it
// started when it is empty), so a client follows `next` now and polls that same position later.

export const DEFAULT_EVENT_PAGE = 100;

export type FeedItem = { id: string } & EventBody;

export function listEventFeed(waitlistId: string, page: { limit?: number; after?: Position }, db: AppDatabase = getDb()): { items: FeedItem[]; next: Position } {
  const limit = page.limit ?? DEFAULT_EVENT_PAGE;
  const read = preparedOnce(db, "feed.events", () =>
    db.$client.prepare<[string, number, number], OutboxEvent>(
      "SELECT id, type, waitlist_id AS waitlistId, signup_id AS signupId, created_at AS createdAt, payload FROM events WHERE waitlist_id = ? AND id > ? ORDER BY id LIMIT ?",
    ),
  );
  const rows = read.all(waitlistId, Number(page.after?.id ?? 0), limit);
  const items = rows.map((event) => ({ id: eventMessageId(event.id), ...eventBody(event, db) }));
  const last = rows.at(-1);
  return { items, next: last ? { createdAt: last.createdAt, id: last.id } : (page.after ?? { createdAt: 0, id: 0 }) };
}
