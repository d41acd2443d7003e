import { beforeEach, describe, expect, it } from "vitest";
import type { AppDatabase } from "@/db/client";
import { claimDue } from "@/lib/domain/deliveries/sending";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { blockDatabase, SQLITE_AND_PGLITE } from "@/tests/support/each-engine";

// The delivery sender claims the due emails, and each endpoint's due webhooks, apart. Its claim said
// `endpoint_id IS ?`, SQLite's null-safe equality, which PostgreSQL refuses (a syntax error): there,
// no email and no webhook was ever sent.

const NOW = Date.UTC(2026, 0, 1);

describe.each(SQLITE_AND_PGLITE)("claiming due deliveries: $engine", ({ open }) => {
  const database = blockDatabase(open);
  let db!: AppDatabase;
  beforeEach(() => {
    db = database();
  });

  it("claims the due emails, and an endpoint's due webhooks, each once until its lease ends", async () => {
    const { id: waitlistId } = await createWaitlist({ name: "Claims", website: "https://claims.example" }, db);
    const run = (text: string, params: unknown[]) => db.$engine.prepare(text).run(params);
    await run("INSERT INTO webhook_endpoints (id, url, waitlist_id, secret, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)", ["hook", "https://hook.example/", waitlistId, "secret", NOW, NOW]);
    await run("INSERT INTO events (type, waitlist_id, created_at, payload) VALUES (?, ?, ?, ?)", ["signup.created", waitlistId, NOW, "{}"]);
    const eventId = (await db.$engine.prepare("SELECT max(id) AS id FROM events").get<{ id: number }>([]))!.id;
    const insert = "INSERT INTO deliveries (event_id, event_type, waitlist_id, channel, endpoint_id, recipient, next_attempt_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
    await run(insert, [null, "signup.invited", waitlistId, "email", null, "ada@claims.example", NOW - 1, NOW]);
    await run(insert, [eventId, "signup.created", waitlistId, "webhook", "hook", null, NOW - 1, NOW]);
    // Not due yet.
    await run(insert, [null, "signup.invited", waitlistId, "email", null, "later@claims.example", NOW + 60_000, NOW]);

    const emails = await claimDue(null, 10, 30_000, NOW, db);
    expect(emails.map((delivery) => [delivery.channel, delivery.endpointId, delivery.recipient, delivery.attempts, delivery.leaseUntil])).toEqual([["email", null, "ada@claims.example", 1, NOW + 30_000]]);
    const webhooks = await claimDue("hook", 10, 30_000, NOW, db);
    expect(webhooks.map((delivery) => [delivery.channel, delivery.endpointId, delivery.eventId, delivery.attempts])).toEqual([["webhook", "hook", eventId, 1]]);
    expect(await claimDue(null, 10, 30_000, NOW + 1, db)).toEqual([]);
    expect(await claimDue("hook", 10, 30_000, NOW + 1, db)).toEqual([]);
    expect((await claimDue(null, 10, 30_000, NOW + 30_000, db)).map((delivery) => delivery.attempts)).toEqual([2]);
  });
});
