import { request as httpRequest } from "node:http";
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { storageFailureMessage } from "@/lib/core/storage-failure";
import { mintInviteToken } from "@/lib/domain/invitations/token";
import { JOIN_WAIT_MS } from "@/lib/domain/joining/join";
import { createApiKey, JOIN_ROLE, REDEEM_ROLE } from "@/lib/domain/keys/queries";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import type { RequestLogLine } from "@/lib/server/request-log";
import { insertSignups } from "@/tests/support/insert-signups";
import { openWaitlist } from "../support/join-fixtures";
import { startTestServer, type TestServer } from "../support/test-server";

// One writer per database, whatever the worker count (issue 30): with WEB_CONCURRENCY=2 the primary
// runs the join writer and the status writer, and both workers hand them their writes. Every request
// below opens a connection of its own, so node:cluster hands them to the workers in turn (to the
// free one first: on a busy machine one worker may take most of them, so no per-key limit here).

test.describe.configure({ mode: "serial", timeout: 120_000 });

let server: TestServer;
let joinKey: string;
let adminKey: string;
let redeemKey: string;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  requestId: string;
  ms: number;
}

function post(path: string, body: string, headers: Record<string, string>): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(`${server.url}${path}`, { method: "POST", headers: { "content-length": String(Buffer.byteLength(body)), ...headers }, agent: false }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body: text, requestId: String(response.headers["request-id"]), ms: performance.now() - started }));
      response.on("error", reject);
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

const join = (waitlistId: string, email: string, headers: Record<string, string> = {}) =>
  post(`/v1/waitlist/${waitlistId}/signup`, JSON.stringify({ email }), { authorization: `Bearer ${joinKey}`, "content-type": "application/json", ...headers });
const invite = (waitlistId: string, idempotencyKey: string) =>
  post(`/v1/waitlist/${waitlistId}/signup/invite?limit=10`, "", { authorization: `Bearer ${adminKey}`, "Idempotency-Key": idempotencyKey });

const count = (sql: string, ...params: unknown[]) => (server.db().$client.prepare(sql).get(...params) as { n: number }).n;

/** The pids of the workers that served these requests (from their log lines). */
async function servedBy(answers: Answer[]): Promise<Set<number>> {
  let pids: (number | undefined)[] = [];
  await expect
    .poll(() => {
      const lines = server.stdout.filter((text) => text.startsWith("{")).map((text) => JSON.parse(text) as RequestLogLine);
      pids = answers.map(({ requestId }) => lines.find((line) => line.request_id === requestId)?.pid);
      return pids.every((pid) => pid !== undefined);
    })
    .toBe(true);
  return new Set(pids as number[]);
}

test.beforeAll(async () => {
  server = await startTestServer({ portOffset: 90, name: "one-writer", env: { WEB_CONCURRENCY: "2", JOINS_PER_CLIENT_PER_HOUR: "1000000", RATE_LIMIT_PER_MINUTE: "1000000" } });
  joinKey = (await createApiKey({ name: "one writer joins", roles: [JOIN_ROLE] }, server.db())).key;
  adminKey = (await createApiKey({ name: "one writer admin", roles: ["waitlist:admin"] }, server.db())).key;
  redeemKey = (await createApiKey({ name: "one writer product", roles: [REDEEM_ROLE] }, server.db())).key;
});

test.afterAll(async () => {
  await server?.stop();
});

test("joins and status actions from both workers at once: each stored exactly once, places 1…n, replays answered from the first", async () => {
  const joining = await openWaitlist({}, server.db());
  const inviting = await openWaitlist({}, server.db());
  insertSignups(inviting.id, Array.from({ length: 200 }, (_, index) => ({ email: `waiting${index}@example.com`, verified: true, referral: false, customInputs: "[]" })), server.db());
  const emails = Array.from({ length: 300 }, (_, index) => `joiner${index}@example.com`);
  // Every tenth address again, in capitals: "already on the list", whichever worker takes it.
  const retries = emails.filter((_, index) => index % 10 === 0).map((email) => email.toUpperCase());
  // Twenty invites of ten, five of them sent twice at once (to both workers) with the same Idempotency-Key.
  const inviteKeys = Array.from({ length: 20 }, (_, index) => `one-writer-invite-${index}`);
  const [joins, again, invites] = await Promise.all([
    Promise.all(emails.map((email) => join(joining.id, email))),
    Promise.all(retries.map((email) => join(joining.id, email))),
    Promise.all([...inviteKeys, ...inviteKeys.slice(0, 5)].map((key) => invite(inviting.id, key))),
  ]);

  // Each address: one 201 (its place) and, for a retried one, one 200, whichever came first.
  const byAddress = new Map<string, number[]>();
  for (const [index, answer] of [...joins, ...again].entries()) {
    const address = [...emails, ...retries][index]!.toLowerCase();
    byAddress.set(address, [...(byAddress.get(address) ?? []), answer.status].sort());
  }
  const unexpected = [...byAddress.entries()].filter(([, statuses]) => statuses.join() !== (statuses.length === 2 ? "200,201" : "201"));
  const answerOf = (address: string) => [...joins, ...again].filter((_, index) => [...emails, ...retries][index]!.toLowerCase() === address).map(({ status, body }) => `${status} ${body}`);
  expect(unexpected.slice(0, 3).map(([address]) => [address, ...answerOf(address)])).toEqual([]);
  expect(byAddress.size).toBe(emails.length);
  const created = [...joins, ...again].filter((answer) => answer.status === 201);
  const places = created.map((answer) => (JSON.parse(answer.body) as { position: number }).position).sort((a, b) => a - b);
  expect(places).toEqual(emails.map((_, index) => index + 1));
  expect(count("SELECT count(*) AS n FROM signups WHERE waitlist_id = ?", joining.id)).toBe(emails.length);
  expect(count("SELECT count(*) AS n FROM events WHERE waitlist_id = ? AND type = 'signup.created'", joining.id)).toBe(emails.length);
  expect(await servedBy(joins)).toHaveProperty("size", 2);

  expect(invites.map((answer) => answer.status)).toEqual(invites.map(() => 200));
  const firstOf = new Map<string, string>();
  for (const [index, answer] of invites.entries()) {
    const key = inviteKeys[index % inviteKeys.length]!;
    if (firstOf.has(key)) expect(answer.body, key).toBe(firstOf.get(key));
    else firstOf.set(key, answer.body);
  }
  expect(invites.filter((answer) => answer.headers["idempotent-replayed"] === "true").length).toBe(5);
  expect([...firstOf.values()].reduce((sum, body) => sum + (JSON.parse(body) as { changed: number }).changed, 0)).toBe(200);
  expect(count("SELECT count(*) AS n FROM signups WHERE waitlist_id = ? AND status = 'invited'", inviting.id)).toBe(200);
  expect(count("SELECT count(*) AS n FROM events WHERE waitlist_id = ? AND type = 'signup.invited'", inviting.id)).toBe(200);
  expect(await servedBy(invites)).toHaveProperty("size", 2);
});

test("redeems of invite links from both workers at once, each token twice: completed once with one event, both answers the same", async () => {
  const db = server.db();
  const waitlist = await openWaitlist({}, db);
  insertSignups(waitlist.id, Array.from({ length: 40 }, (_, index) => ({ email: `invited${index}@example.com`, verified: true, referral: false, customInputs: "[]" })), db);
  const { signups } = await applyStatusAction("cli", { action: "invite", selection: { scope: { waitlistId: waitlist.id }, limit: 40 }, withSignups: true }, db);
  const tokens: string[] = [];
  for (const signup of signups) tokens.push(await mintInviteToken(waitlist.id, signup.id, signup.statusChangedAt!.getTime(), 14, db));
  // Redeems run on the status writer (the primary's), as status actions do: the two of a token take turns there.
  const answers = await Promise.all([...tokens, ...tokens].map((token) => post(`/v1/invitations/${token}/redeem`, "", { authorization: `Bearer ${redeemKey}` })));
  expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
  for (const [index, answer] of answers.slice(0, tokens.length).entries()) {
    expect(JSON.parse(answer.body)).toMatchObject({ state: "redeemed", signup: { status: "completed" } });
    expect(answers[index + tokens.length]!.body).toBe(answer.body);
  }
  expect(count("SELECT count(*) AS n FROM signups WHERE waitlist_id = ? AND status = 'completed'", waitlist.id)).toBe(40);
  expect(count("SELECT count(*) AS n FROM events WHERE waitlist_id = ? AND type = 'signup.completed'", waitlist.id)).toBe(40);
  expect(await servedBy(answers)).toHaveProperty("size", 2);
});

test("a write lock held elsewhere: joins on both workers, queued or not, wait one JOIN_WAIT_MS, then 503 saying why in one line; nothing stored; then they work again", async () => {
  const waitlist = await openWaitlist({}, server.db());
  const holder = new Database(server.databasePath);
  holder.exec("BEGIN IMMEDIATE");
  let answers: Answer[];
  try {
    // A second wave a second later, queued behind the first's batch as it waits for the lock.
    const wave = (from: number) => Array.from({ length: 3 }, (_, index) => join(waitlist.id, `locked${from + index}@example.com`));
    const first = wave(0);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    answers = await Promise.all([...first, ...wave(3)]);
  } finally {
    holder.exec("ROLLBACK");
    holder.close();
  }
  expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 503));
  for (const answer of answers) {
    expect((JSON.parse(answer.body) as { detail: string }).detail).toBe(storageFailureMessage("busy"));
    // One bounded wait from its own start, not a turn behind a batch's busy timeout and then its own (~9 s for the second wave).
    expect(answer.ms).toBeGreaterThan(JOIN_WAIT_MS - 500);
    expect(answer.ms).toBeLessThan(JOIN_WAIT_MS + 1_500);
  }
  expect(await servedBy(answers)).toHaveProperty("size", 2);
  expect(count("SELECT count(*) AS n FROM signups WHERE waitlist_id = ?", waitlist.id)).toBe(0);
  expect((await join(waitlist.id, "locked0@example.com")).status).toBe(201);
});
