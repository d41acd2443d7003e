import "server-only";
import { eq, sql, type SQL } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { events } from "@/db/schema";
import type { Dialect } from "@/lib/store/dialect";
import { preparedOnce, preparedSql, valuePlaceholder } from "@/lib/store/statements";
import { goneSignupBodySql, signupEventBodySql } from "./event-snapshot";

const placeholder = sql.placeholder;

// The transactional outbox (the `events` table, migration 0010): every join, verification, status
// change, erasure and import appends its events inside its own transaction, so an event exists exactly
// when its change committed. Each row also holds its body (migration 0014, ./event-snapshot.ts): what a
// webhook carries and the /v1 feed lists, the signup as of the event, address included, until an
// erasure rewrites the person's bodies to their id alone (redactSignupEvents). The payload never holds
// an address.

export const EVENT_TYPES = ["signup.created", "signup.verified", "signup.invited", "signup.rejected", "signup.invitation_withdrawn", "signup.restored", "signup.completed", "signup.erased", "signups.imported", "signup.updated", "signup.flag_approved", "signup.flag_discounted", "signup.milestone_reached", "signup.invitation_expired", "signup.invitation_reminder", "invitations.batch_sent"] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface NewEvent {
  type: EventType;
  waitlistId: string;
  signupId?: number;
  /** Plain data without addresses: counts, states, ids. */
  payload: Record<string, unknown>;
}

/** A status change's payload names the status before it: the body's `previous_status`. */
const previousStatus = (payload: Record<string, unknown>) => (typeof payload.from === "string" ? payload.from : null);
/** A milestone's payload names the milestone: the body's `milestone`. */
const milestoneOf = (payload: Record<string, unknown>) => (payload.milestone === undefined ? null : JSON.stringify(payload.milestone));

/** Appends one event with its body. Call it inside the transaction of the write it records, after the write. */
export async function appendEvent(event: NewEvent, db: AppDatabase = getDb(), at = Date.now()): Promise<void> {
  const timestamp = new Date(at).toISOString();
  const payload = JSON.stringify(event.payload);
  if (event.signupId === undefined) {
    const insert = preparedOnce(db, "events.insert", () =>
      db
        .insert(events)
        .values({ type: valuePlaceholder("type"), waitlistId: valuePlaceholder("waitlistId"), signupId: null, createdAt: valuePlaceholder("at"), payload: valuePlaceholder("payload"), body: valuePlaceholder("body") })
        .prepare(),
    );
    await insert.run({ type: event.type, waitlistId: event.waitlistId, at, payload, body: JSON.stringify({ type: event.type, timestamp, data: { waitlist_id: event.waitlistId, ...event.payload } }) });
    return;
  }
  const insert = preparedSql(db, "events.insertOfSignup", (d) =>
    // One row of VALUES, the body a scalar subquery. Written as INSERT … SELECT, the same insert made
    // a group commit of joins read 7.7× and write 2.3× as many pages (4,800 joins: 28,249 reads and
    // 84,701 writes against 3,680 and 36,343) and stalled 30–150 ms every 9th join: 0.14–0.43 ms per
    // insert on average against 0.02–0.05 ms.
    sql`INSERT INTO events (type, waitlist_id, signup_id, created_at, payload, body)
       VALUES (${placeholder("type")}, ${placeholder("waitlistId")}, ${placeholder("signupId")}, ${placeholder("at")}, ${placeholder("payload")}, (SELECT ${signupEventBodySql(d, sql`${placeholder("signupId")}`)}
       FROM (SELECT 1)${d.subqueryName("one")} LEFT JOIN signups ON signups.id = ${placeholder("signupId")} AND signups.waitlist_id = ${placeholder("waitlistId")}))`,
  );
  await insert.run({ type: event.type, waitlistId: event.waitlistId, signupId: event.signupId, at, timestamp, payload, from: previousStatus(event.payload), milestone: milestoneOf(event.payload) });
}

/**
 * The INSERT … SELECT over the ids' rows of appendEventPerSignup (one event per id of a bulk action), which Drizzle's builder
 * has no form for. Its selected values are typed: PostgreSQL types a parameter in a SELECT list as text.
 */
export function eventPerSignupInsertSql(d: Dialect): SQL {
  return sql`INSERT INTO events (type, waitlist_id, signup_id, created_at, payload, body)
       SELECT ${d.typed(placeholder("type"), "text")}, ${d.typed(placeholder("waitlistId"), "text")}, ids.value, ${d.typed(placeholder("at"), "bigint")}, ${d.typed(placeholder("payload"), "text")}, ${signupEventBodySql(d, sql`ids.value`)}
       FROM ${d.jsonRows(placeholder("ids"), "ids", "integer")} LEFT JOIN signups ON signups.id = ids.value AND signups.waitlist_id = ${placeholder("waitlistId")}`;
}

/** One event per signup id in the JSON array `idsJson`, with one payload and each its body, in one statement. */
export async function appendEventPerSignup(type: EventType, waitlistId: string, idsJson: string, payload: Record<string, unknown>, db: AppDatabase, at = Date.now()): Promise<number> {
  const insert = preparedSql(db, "events.insertPerSignup", eventPerSignupInsertSql);
  return (await insert.run({ type, waitlistId, ids: idsJson, at, timestamp: new Date(at).toISOString(), payload: JSON.stringify(payload), from: previousStatus(payload), milestone: milestoneOf(payload) })).changes;
}

/** Erasure: the bodies of these signups' events name them by their id alone. Inside the erasure's transaction. */
export async function redactSignupEvents(signupIds: readonly number[], db: AppDatabase): Promise<number> {
  if (signupIds.length === 0) return 0;
  const redact = preparedSql(db, "events.redact", (d) =>
    // In SQL: the ids come as one JSON array, which Drizzle's builder has no form for.
    sql`UPDATE events SET body = ${goneSignupBodySql(d, sql`type`, d.jsonField(sql`body`, "timestamp"), sql`waitlist_id`, sql`signup_id`)}
       WHERE signup_id ${d.inJson(placeholder("ids"), "integer")}`,
  );
  return (await redact.run({ ids: JSON.stringify(signupIds) })).changes;
}

export interface SignupEvent {
  type: EventType;
  at: Date;
}

/** A signup's events, oldest first: its status history. */
export async function signupEvents(signupId: number, db: AppDatabase = getDb()): Promise<SignupEvent[]> {
  const select = preparedOnce(db, "events.ofSignup", () =>
    db.select({ type: sql<EventType>`${events.type}`, at: events.createdAt }).from(events).where(eq(events.signupId, sql.placeholder("signupId"))).orderBy(events.id).prepare(),
  );
  return await select.all({ signupId });
}
