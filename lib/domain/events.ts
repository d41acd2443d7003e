import "server-only";
import { getDb, type AppDatabase } from "@/db/client";
import { preparedOnce } from "@/lib/sqlite/statements";

// The transactional outbox (the `events` table, migration 0010): every join, verification, status
// change, erasure and import appends its events inside its own transaction, so an event exists exactly when its change
// committed. A payload never holds an email address: an erased person leaves no trace here, and a
// reader that needs the address looks the signup up by its id (gone once erased).

export const EVENT_TYPES = ["signup.created", "signup.verified", "signup.invited", "signup.rejected", "signup.invitation_withdrawn", "signup.restored", "signup.completed", "signup.erased", "signups.imported"] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface NewEvent {
  type: EventType;
  waitlistId: string;
  signupId?: number;
  /** Plain data without addresses: counts, states, ids. */
  payload: Record<string, unknown>;
}

/** Appends one event. Call it inside the transaction of the write it records. */
export function appendEvent(event: NewEvent, db: AppDatabase = getDb(), at = Date.now()): void {
  const insert = preparedOnce(db, "events.insert", () =>
    db.$client.prepare<[string, string, number | null, number, string]>("INSERT INTO events (type, waitlist_id, signup_id, created_at, payload) VALUES (?, ?, ?, ?, ?)"),
  );
  insert.run(event.type, event.waitlistId, event.signupId ?? null, at, JSON.stringify(event.payload));
}

/** One event per signup id in the JSON array `idsJson`, with one payload, in one statement. */
export function appendEventPerSignup(type: EventType, waitlistId: string, idsJson: string, payload: Record<string, unknown>, db: AppDatabase, at = Date.now()): number {
  const insert = preparedOnce(db, "events.insertPerSignup", () =>
    db.$client.prepare<{ type: string; waitlistId: string; ids: string; at: number; payload: string }>(
      "INSERT INTO events (type, waitlist_id, signup_id, created_at, payload) SELECT @type, @waitlistId, value, @at, @payload FROM json_each(@ids)",
    ),
  );
  return insert.run({ type, waitlistId, ids: idsJson, at, payload: JSON.stringify(payload) }).changes;
}

export interface SignupEvent {
  type: EventType;
  at: Date;
}

/** A signup's events, oldest first: its status history. */
export function signupEvents(signupId: number, db: AppDatabase = getDb()): SignupEvent[] {
  const select = preparedOnce(db, "events.ofSignup", () =>
    db.$client.prepare<[number], { type: EventType; at: number }>("SELECT type, created_at AS at FROM events WHERE signup_id = ? ORDER BY id"),
  );
  return select.all(signupId).map((row) => ({ type: row.type, at: new Date(row.at) }));
}
