import { writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { SMTPServer } from "smtp-server";
import type { AppDatabase } from "@/db/client";
import { updateInvitationEmail } from "@/lib/domain/emails/invitation";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { addEndpoint } from "@/lib/domain/webhooks/endpoints";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { insertSignups, makeSignups } from "../support/api-fixtures";
import { freshDatabasePath, startTestServer, type TestServer } from "../support/test-server";
import { eventually, startReceiver, type Answer, type Receiver } from "../support/webhook-receiver";

// The sender against real receivers: a local HTTP server that fails in every way a receiver can, an
// in-process SMTP server, a server killed with SIGKILL in the middle of its deliveries, and two
// server processes on one database. Timings are shortened through the environment.

test.describe.configure({ mode: "serial", timeout: 180_000 });

const FAST = {
  WEB_CONCURRENCY: "1",
  REQUEST_LOG: "off",
  WEBHOOK_ALLOW_HTTP: "1",
  WEBHOOK_ALLOW_PRIVATE: "1",
  DELIVERY_POLL: "50ms",
  DELIVERY_LEASE: "2s",
  DELIVERY_TIMEOUT: "1s",
  DELIVERY_RETRY_SCHEDULE: "100ms,100ms,100ms,100ms,100ms",
};

function deliveryRows(path: string): { event_id: number; state: string; attempts: number; last_response: string | null; last_error: string | null; channel: string }[] {
  const sqlite = new Database(path, { readonly: true });
  try {
    return sqlite.prepare("SELECT event_id, state, attempts, last_response, last_error, channel FROM deliveries ORDER BY id").all() as ReturnType<typeof deliveryRows>;
  } finally {
    sqlite.close();
  }
}

async function waitlistOf(db: AppDatabase, signups: number) {
  const waitlist = await createWaitlist({ name: "Deliveries", website: "https://deliveries.example" }, db);
  const seeds = makeSignups(signups, `d${Date.now()}`);
  await insertSignups(waitlist.id, seeds, db);
  return { waitlist, seeds };
}

async function inviteAll(db: AppDatabase, waitlistId: string, emails: string[]) {
  await applyStatusAction("cli", { action: "invite", selection: { waitlistId, emails } }, db);
}

let server: TestServer | undefined;
let second: TestServer | undefined;
let receiver: Receiver | undefined;
test.afterEach(async () => {
  await server?.stop("SIGKILL");
  await second?.stop("SIGKILL");
  await receiver?.close();
  server = second = receiver = undefined;
});

test("a server killed with SIGKILL in the middle of its deliveries resumes: every event arrives, signed, at least once", async () => {
  const EVENTS = 300;
  const databasePath = freshDatabasePath("deliveries-kill");
  let secret = "";
  // Slow answers, so that the kill lands while requests are in flight.
  receiver = await startReceiver(() => secret, () => ({ status: 200, delayMs: 30 }));
  server = await startTestServer({ portOffset: 70, name: "deliveries-kill", databasePath, env: FAST });
  const db = server.db();
  secret = (await addEndpoint("cli", { url: receiver.url }, db)).secret;
  const { waitlist, seeds } = await waitlistOf(db, EVENTS);
  await inviteAll(db, waitlist.id, seeds.map((seed) => seed.email));

  await eventually("a first share of the deliveries", () => receiver!.ids().size >= EVENTS / 5);
  server.process.kill("SIGKILL");
  await server.stop("SIGKILL");
  const beforeRestart = receiver.ids().size;
  expect(beforeRestart).toBeLessThan(EVENTS);

  server = await startTestServer({ portOffset: 70, name: "deliveries-kill", databasePath, env: FAST });
  await eventually("every event", () => receiver!.ids().size === EVENTS, 90_000);
  await eventually("every delivery recorded", () => deliveryRows(databasePath).every((row) => row.state === "succeeded"));

  expect(receiver.received.every((entry) => entry.signatureValid)).toBe(true);
  expect([...receiver.ids()].sort()).toEqual(deliveryRows(databasePath).map((row) => `evt_${row.event_id}`).sort());
  const duplicates = receiver.received.length - EVENTS;
  // Only the sends in flight at the kill (at most DELIVERY_CONCURRENCY = 4) may arrive twice.
  expect(duplicates).toBeLessThanOrEqual(4);
  writeFileSync(test.info().outputPath("kill-counts.json"), JSON.stringify({ events: EVENTS, beforeKill: beforeRestart, received: receiver.received.length, duplicates }));
  console.log(`kill test: ${EVENTS} events, ${beforeRestart} received before the kill, ${receiver.received.length} requests in all, ${duplicates} duplicates`);
});

test("a receiver that fails in every way gets each event again until it answers 2xx; one that always refuses ends failed", async () => {
  let secret = "";
  // Per attempt of each event: 500, a redirect, no answer (timeout), a connection cut mid-answer, then 200.
  const answers: Answer[] = [{ status: 500 }, { status: 302, headers: { Location: "https://elsewhere.example/" } }, "hang", "cut", { status: 204 }];
  receiver = await startReceiver(() => secret, (request) => answers[request.attempt - 1] ?? { status: 200 });
  let refusingSecret = "";
  const refusing = await startReceiver(() => refusingSecret, () => ({ status: 404 }));
  try {
    server = await startTestServer({ portOffset: 71, name: "deliveries-failures", env: FAST });
    const db = server.db();
    secret = (await addEndpoint("cli", { url: receiver.url }, db)).secret;
    refusingSecret = (await addEndpoint("cli", { url: refusing.url }, db)).secret;
    const { waitlist, seeds } = await waitlistOf(db, 2);
    await inviteAll(db, waitlist.id, seeds.map((seed) => seed.email));

    await eventually("the two events delivered", () => receiver!.received.filter((entry) => entry.attempt === 5).length === 2, 60_000);
    await eventually("the refused deliveries failed", () => deliveryRows(server!.databasePath).filter((row) => row.state === "failed").length === 2, 60_000);
    await eventually("the answered deliveries recorded", () => deliveryRows(server!.databasePath).filter((row) => row.state === "succeeded").length === 2);
    const rows = deliveryRows(server.databasePath);
    expect(rows.filter((row) => row.state === "succeeded").map((row) => [row.attempts, row.last_response, row.last_error])).toEqual([
      [5, "204", null],
      [5, "204", null],
    ]);
    // 1 attempt and 5 retries, then failed; the log keeps the last answer.
    expect(rows.filter((row) => row.state === "failed").map((row) => [row.attempts, row.last_response, row.last_error])).toEqual([
      [6, "404", "HTTP 404: receiver says no"],
      [6, "404", "HTTP 404: receiver says no"],
    ]);
    expect(refusing.received).toHaveLength(12);
    expect(receiver.received.every((entry) => entry.signatureValid)).toBe(true);
    // The webhook-id of an event is the same on every attempt, and its body too.
    for (const id of receiver.ids()) {
      const bodies = receiver.received.filter((entry) => entry.id === id).map((entry) => JSON.stringify(entry.body));
      expect(bodies).toHaveLength(5);
      expect(new Set(bodies).size).toBe(1);
    }
  } finally {
    await refusing.close();
  }
});

test("two server processes on one database: one sender, no delivery sent twice, none sent concurrently", async () => {
  const EVENTS = 200;
  const databasePath = freshDatabasePath("deliveries-two");
  let secret = "";
  receiver = await startReceiver(() => secret, () => ({ status: 200, delayMs: 5 }));
  server = await startTestServer({ portOffset: 72, name: "deliveries-two", databasePath, env: FAST });
  second = await startTestServer({ portOffset: 73, name: "deliveries-two", databasePath, env: FAST });
  const db = server.db();
  secret = (await addEndpoint("cli", { url: receiver.url }, db)).secret;
  const { waitlist, seeds } = await waitlistOf(db, EVENTS);
  await inviteAll(db, waitlist.id, seeds.map((seed) => seed.email));
  await eventually("every event", () => receiver!.ids().size === EVENTS, 60_000);
  await eventually("every delivery recorded", () => deliveryRows(databasePath).every((row) => row.state === "succeeded"));
  expect(receiver.received).toHaveLength(EVENTS);
  expect(receiver.maxConcurrentPerId).toBe(1);
  expect(deliveryRows(databasePath).every((row) => row.attempts === 1)).toBe(true);
});

test("invitation emails go through a real SMTP server, rendered from the waitlist's template", async () => {
  const messages: { to: string; data: string }[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      let data = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => (data += chunk));
      stream.on("end", () => {
        messages.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address).join(","), data });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = smtp.server.address() as AddressInfo;
    server = await startTestServer({ portOffset: 74, name: "deliveries-smtp", env: { ...FAST, SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: "Launch <launch@example.com>" } });
    const db = server.db();
    const { waitlist, seeds } = await waitlistOf(db, 3);
    await updateInvitationEmail("cli", waitlist.id, { enabled: true, subject: "Welcome to {{waitlist.name}}", body: "Hello {{email}}, see {{waitlist.website}}" }, db);
    await inviteAll(db, waitlist.id, seeds.slice(0, 2).map((seed) => seed.email));
    await eventually("two emails", () => messages.length === 2);
    expect(messages.map((message) => message.to).sort()).toEqual(seeds.slice(0, 2).map((seed) => seed.email).sort());
    for (const message of messages) {
      expect(message.data).toContain("Subject: Welcome to Deliveries");
      expect(message.data).toContain(`Hello ${message.to}, see https://deliveries.example`);
      expect(message.data).toMatch(/^From: Launch <launch@example\.com>/m);
    }
    await eventually("both recorded", () => deliveryRows(server!.databasePath).filter((row) => row.state === "succeeded").length === 2);
    expect(deliveryRows(server.databasePath).map((row) => [row.channel, row.state, row.last_response?.slice(0, 3)])).toEqual([
      ["email", "succeeded", "250"],
      ["email", "succeeded", "250"],
    ]);
  } finally {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  }
});
