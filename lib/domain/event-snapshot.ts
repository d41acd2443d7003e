import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { valuePlaceholder } from "@/lib/store/statements";
import type { Dialect } from "@/lib/store/dialect";
import { signupSnapshotJsonSql } from "./signups/queries";

// One body per event (issue 29): the body a webhook carries and the /v1 feed lists (Standard
// Webhooks' {type, timestamp, data}) is written into `events.body` by the very statement that appends
// the event, from the signup as that transaction leaves it, so every reader sends the same bytes
// whenever it reads them. A signup event's `data` is the waitlist's id, the signup with all eight
// fields and, for a status change, `previous_status`, for a milestone reached, `milestone`; a signup that is gone (and `signup.erased`
// itself) is only its id. An erasure rewrites its person's bodies to that id-only form in its own
// transaction (redactSignupEvents in events.ts), so no address stays in the outbox.
//
// In SQL, not JavaScript, so that "invite the next 100,000" appends its events with their bodies in
// one INSERT … SELECT over json_each (no row comes back to JavaScript).

/** SQL: an event body naming its signup only by its id (erased, or `signup.erased`). */
export function goneSignupBodySql(d: Dialect, type: SQL, timestamp: SQL, waitlistId: SQL, signupId: SQL): SQL {
  return d.jsonObject([
    ["type", d.jsonString(type)],
    ["timestamp", d.jsonString(timestamp)],
    ["data", d.jsonObject([["waitlist_id", d.jsonString(waitlistId)], ["signup", d.jsonObject([["id", d.jsonString(sql`cast(${d.integerOf(signupId)} AS text)`)]])]])],
  ]);
}

/**
 * SQL: the body of a signup event, over a LEFT JOIN of `signups` on the event's signup (its id is
 * `signupId`), with the placeholders type, timestamp (ISO 8601), waitlistId, from (the status
 * before a status change, else null) and milestone (the milestone reached, as JSON, else null).
 */
export function signupEventBodySql(d: Dialect, signupId: SQL): SQL {
  const [type, timestamp, waitlistId, from, milestone] = ["type", "timestamp", "waitlistId", "from", "milestone"].map((name) => d.typed(valuePlaceholder(name), "text")) as [SQL, SQL, SQL, SQL, SQL];
  // Each form whole at the top (no json() around a branch): parsing the body again cost a third of its time.
  const body = (...extra: [key: string, value: SQL][]) =>
    d.jsonObject([
      ["type", d.jsonString(type)],
      ["timestamp", d.jsonString(timestamp)],
      ["data", d.jsonObject([["waitlist_id", d.jsonString(waitlistId)], ["signup", signupSnapshotJsonSql(d)], ...extra])],
    ]);
  return sql`CASE WHEN "signups"."id" IS NULL THEN ${goneSignupBodySql(d, type, timestamp, waitlistId, signupId)} WHEN ${from} IS NOT NULL THEN ${body(["previous_status", d.jsonString(from)])} WHEN ${milestone} IS NOT NULL THEN ${body(["milestone", d.jsonEmbedded(milestone)])} ELSE ${body()} END`;
}
