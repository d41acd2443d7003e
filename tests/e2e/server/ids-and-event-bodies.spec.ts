import { expect, test } from "@playwright/test";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { createApiKey } from "@/lib/domain/keys/queries";
import { eraseSignup } from "@/lib/domain/signups/erase";
import { JOINED_LINK_LIFETIME_MS, signLinkToken } from "@/lib/domain/verification/link-token";
import { addEndpoint } from "@/lib/domain/webhooks/endpoints";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { bearer } from "../support/api-fixtures";
import { startTestServer, type TestServer } from "../support/test-server";
import { eventually, startReceiver, type Receiver } from "../support/webhook-receiver";

// Issue 29, items 3 and 4, against a server of its own (so that the signup erased is the newest of
// the file): an erased signup's id is never given again, so its old links, tokens and events name
// no one else; and a webhook and the /v1 feed carry the same bytes for each event.

test.describe.configure({ mode: "serial", timeout: 120_000 });

let server: TestServer;
let receiver: Receiver;
let secret = "";
test.beforeAll(async () => {
  receiver = await startReceiver(() => secret);
  server = await startTestServer({
    portOffset: 87,
    name: "ids-and-event-bodies",
    env: { WEB_CONCURRENCY: "1", REQUEST_LOG: "off", WEBHOOK_ALLOW_HTTP: "1", WEBHOOK_ALLOW_PRIVATE: "1", DELIVERY_POLL: "50ms" },
  });
  secret = (await addEndpoint("cli", { url: receiver.url }, server.db())).secret;
});
test.afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

const keys = async () => ({
  join: bearer((await createApiKey({ name: "ids joiner", roles: ["waitlist:join"] }, server.db())).key),
  admin: bearer((await createApiKey({ name: "ids admin", roles: ["waitlist:admin"] }, server.db())).key),
});

async function openWaitlist(name: string) {
  const db = server.db();
  const waitlist = await createWaitlist({ name: `${name} ${Date.now()}`, website: "https://ids.example" }, db);
  await updateJoinSettings(waitlist.id, { joining: "open", verification: true, challenge: false }, "cli", db);
  return waitlist;
}

/** The confirmation link's token of the newest confirmation email to `email` (kept as not sent: no SMTP here). */
async function confirmTokenOf(email: string): Promise<string> {
  const find = () => server.db().$client.prepare("SELECT body FROM deliveries WHERE channel = 'email' AND recipient = ? ORDER BY id DESC").pluck().get(email) as string | undefined;
  await eventually(`the confirmation email to ${email}`, () => find() !== undefined);
  return decodeURIComponent(/\/confirm\?token=(\S+)/.exec(find()!)![1]!);
}

const idOf = (waitlistId: string, email: string) => server.db().$client.prepare("SELECT id FROM signups WHERE waitlist_id = ? AND email = ?").pluck().get(waitlistId, email) as number | undefined;

test("after the newest signup is erased, the next one gets a new id: the old joined link, confirmation link and events name no one", async ({ request }) => {
  const { join, admin } = await keys();
  const waitlist = await openWaitlist("Ids");
  const joinAs = (email: string) => request.post(`${server.url}/v1/waitlist/${waitlist.id}/signup`, { headers: join, data: { email, custom_inputs: [] } });
  expect((await joinAs("x.first@example.com")).status()).toBe(201);
  const x = idOf(waitlist.id, "x.first@example.com")!;
  const confirmToken = await confirmTokenOf("x.first@example.com");
  const joinedToken = await signLinkToken({ purpose: "joined", waitlistId: waitlist.id, signupId: x, expiresAt: new Date(Date.now() + JOINED_LINK_LIFETIME_MS) }, server.db());
  const joinedPage = `${server.url}/join/${waitlist.id}/joined?t=${encodeURIComponent(joinedToken)}`;
  expect((await request.get(joinedPage)).status()).toBe(200);

  // Erased (as `npm run cli -- signups erase` does, from another process), then someone else joins.
  await eraseSignup("cli", waitlist.id, x, server.db());
  expect((await joinAs("y.second@example.com")).status()).toBe(201);
  const y = idOf(waitlist.id, "y.second@example.com")!;
  expect(y).toBeGreaterThan(x);

  // X's joined page is gone, not Y's page; X's confirmation link says the signup is gone and confirms no one.
  const page = await request.get(joinedPage);
  expect(page.status()).toBe(404);
  expect(await page.text()).not.toContain("y.second@example.com");
  const confirmPage = await (await request.get(`${server.url}/join/${waitlist.id}/confirm?token=${encodeURIComponent(confirmToken)}`)).text();
  expect(confirmPage).toContain("This signup no longer exists");
  const confirmed = await request.post(`${server.url}/join/${waitlist.id}/confirm/submit`, { form: { token: confirmToken }, headers: { Origin: server.url }, maxRedirects: 0 });
  expect(confirmed.status()).toBe(303);
  expect(confirmed.headers().location).toContain("outcome=gone");
  expect(server.db().$client.prepare("SELECT verified FROM signups WHERE id = ?").pluck().get(y)).toBe(0);
  const resend = await request.post(`${server.url}/join/${waitlist.id}/resend`, { form: { t: joinedToken }, headers: { Origin: server.url }, maxRedirects: 0 });
  expect(resend.headers().location ?? "").toContain("resent=gone");

  // The feed: X's events name X's id alone; Y appears only in its own signup.created.
  const feed = await request.get(`${server.url}/v1/waitlist/${waitlist.id}/events`, { headers: admin });
  const items = (await feed.json()) as { type: string; data: { signup?: { id: string; email?: string } } }[];
  expect(items.map((item) => [item.type, item.data.signup])).toEqual([
    ["signup.created", { id: String(x) }],
    ["signup.erased", { id: String(x) }],
    ["signup.created", expect.objectContaining({ id: String(y), email: "y.second@example.com" })],
  ]);
});

test("the webhook and the feed carry the same bytes for each event across join, confirmation and invitation", async ({ request }) => {
  const { join, admin } = await keys();
  const waitlist = await openWaitlist("Bodies");
  const email = "bodies@example.com";
  expect((await request.post(`${server.url}/v1/waitlist/${waitlist.id}/signup`, { headers: join, data: { email, custom_inputs: [] } })).status()).toBe(201);
  const confirmed = await request.post(`${server.url}/join/${waitlist.id}/confirm/submit`, { form: { token: await confirmTokenOf(email) }, headers: { Origin: server.url }, maxRedirects: 0 });
  expect(confirmed.headers().location).toContain("outcome=confirmed");
  expect((await request.post(`${server.url}/v1/waitlist/${waitlist.id}/signup/invite`, { headers: admin, data: { emails: [email] } })).status()).toBe(200);

  const ofThisList = () => receiver.received.filter((entry) => entry.body.data.waitlist_id === waitlist.id);
  await eventually("three webhooks", () => ofThisList().length >= 3);
  const webhooks = ofThisList();
  expect(webhooks.every((entry) => entry.signatureValid)).toBe(true);
  const feed = await (await request.get(`${server.url}/v1/waitlist/${waitlist.id}/events`, { headers: admin })).text();
  const items = JSON.parse(feed) as { id: string }[];
  expect(items.map((item) => item.id)).toEqual(webhooks.map((entry) => entry.id));
  // Byte for byte: each feed item is `{"id":…,` followed by the webhook's own body after its `{`.
  for (const entry of webhooks) expect(feed).toContain(`{"id":"${entry.id}",${entry.raw.slice(1)}`);
  expect(webhooks.map((entry) => [entry.body.type, (entry.body.data.signup as { verified: boolean; status: string }).verified, (entry.body.data.signup as { status: string }).status])).toEqual([
    ["signup.created", false, "waiting"],
    ["signup.verified", true, "waiting"],
    ["signup.invited", true, "invited"],
  ]);
});
