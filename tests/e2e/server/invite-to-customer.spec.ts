import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { API_ROUTES } from "@/lib/api/route-table";
import { SESSION_COOKIE } from "@/lib/dashboard/session-cookie";
import { signupEvents } from "@/lib/domain/events";
import { createApiKey } from "@/lib/domain/keys/queries";
import { createSession } from "@/lib/domain/sessions";
import { getSignup } from "@/lib/domain/signups/queries";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { insertSignups, makeSignups } from "../support/api-fixtures";
import { startSmtpInbox, type SmtpInbox } from "../support/smtp-inbox";
import { hydrated } from "../support/support";
import { startTestServer, type TestServer } from "../support/test-server";
import { eventually, startReceiver, type Receiver } from "../support/webhook-receiver";

// Issue 32's "done when", from invitation to customer, on a server of its own with a real SMTP server
// and a real webhook receiver: an admin (in Chromium) adds a webhook endpoint, sets the invite links'
// sign-up URL, turns invitation emails on and invites a signup; the person follows the email's link to
// a small "product" server (the docs page's example, /docs/connect-your-product), which checks and
// redeems the token with a waitlist:redeem key; the signup is completed and `signup.completed` arrives,
// signed; a second redeem answers the same and changes nothing; the key can do nothing else.

const PORT_OFFSET = 45;
const publicUrl = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100) + PORT_OFFSET}`;

let server: TestServer;
let inbox: SmtpInbox;
let receiver: Receiver;
let secret = "";

test.beforeAll(async () => {
  inbox = await startSmtpInbox();
  receiver = await startReceiver(() => secret);
  server = await startTestServer({
    portOffset: PORT_OFFSET,
    name: "invite-to-customer",
    env: { WEB_CONCURRENCY: "1", REQUEST_LOG: "off", DELIVERY_POLL: "50ms", SMTP_URL: inbox.url, MAIL_FROM: "Launch <launch@example.com>", PUBLIC_URL: publicUrl, WEBHOOK_ALLOW_HTTP: "1", WEBHOOK_ALLOW_PRIVATE: "1" },
  });
});

test.afterAll(async () => {
  await server?.stop();
  await inbox?.close();
  await receiver?.close();
});

interface ProductCall {
  method: string;
  path: string;
  status: number;
  body: string;
}

/** The product's sign-up page of /docs/connect-your-product's example, on a free port; it keeps every call it makes to the waitlist server. */
async function startProduct(waitlistUrl: string, redeemKey: string): Promise<{ url: string; calls: ProductCall[]; server: Server }> {
  const calls: ProductCall[] = [];
  const headers = { Authorization: `Bearer ${redeemKey}` };
  const call = async (method: string, url: string) => {
    const answer = await fetch(url, { method, headers });
    const body = await answer.text();
    calls.push({ method, path: new URL(url).pathname, status: answer.status, body });
    return { ok: answer.ok, json: JSON.parse(body) as { state?: string; detail?: string; signup: { email: string } } };
  };
  const signupPage = async (request: IncomingMessage, response: ServerResponse) => {
    const { pathname, searchParams } = new URL(request.url!, "http://localhost");
    if (pathname !== "/signup") return response.writeHead(404).end(); // the browser's /favicon.ico
    const token = searchParams.get("invite") ?? "";
    const url = `${waitlistUrl}/v1/invitations/${encodeURIComponent(token)}`;
    const invitation = (await call("GET", url)).json;
    if (invitation.state !== "valid") return response.writeHead(403).end(invitation.detail ?? "Already used.");
    // …the product creates the account for invitation.signup.email here, then:
    const redeemed = await call("POST", `${url}/redeem`);
    response.writeHead(redeemed.ok ? 200 : 409, { "Content-Type": "text/plain; charset=utf-8" }).end(redeemed.ok ? `Welcome, ${invitation.signup.email}!` : "Try again.");
  };
  const product = createServer((request, response) => void signupPage(request, response));
  await new Promise<void>((resolve) => product.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(product.address() as AddressInfo).port}`, calls, server: product };
}

test("an admin invites in the dashboard; the email's link reaches the product, which redeems it once; signup.completed arrives; the redeem key does nothing else", async ({ browser }) => {
  test.setTimeout(120_000);
  const db = server.db();
  const waitlist = await createWaitlist({ name: "Launch list", website: "https://launch.example" }, db);
  const seeds = makeSignups(3, `itc${Date.now()}`);
  await insertSignups(waitlist.id, seeds, db);
  const [person, byAddress] = [seeds[0]!, seeds[1]!];
  const idOf = (email: string) => db.$client.prepare("SELECT id FROM signups WHERE waitlist_id = ? AND email = ?").pluck().get(waitlist.id, email) as number;
  const personId = idOf(person.email);
  const adminKey = await createApiKey({ name: "founder", roles: ["waitlist:admin"] }, db);
  const redeemKey = await createApiKey({ name: "product sign-up", roles: ["waitlist:redeem"] }, db);
  const product = await startProduct(server.url, redeemKey.key);
  const context = await browser.newContext({ baseURL: server.url });
  try {
    await context.addCookies([{ name: SESSION_COOKIE, value: (await createSession(adminKey.id, db)).token, url: server.url, httpOnly: true, sameSite: "Lax" }]);
    const page = await context.newPage();

    // A webhook endpoint for the list's signup.completed.
    await page.goto("/webhooks");
    await page.waitForFunction(() => Object.keys(document.querySelector("#endpoint-url") ?? {}).some((key) => key.startsWith("__reactProps")));
    await page.getByLabel("URL", { exact: true }).fill(receiver.url);
    await page.getByLabel("Waitlist", { exact: true }).selectOption(waitlist.id);
    await page.getByRole("checkbox", { name: "signup.completed" }).check();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    secret = (await page.getByTestId("new-secret").textContent())!;
    expect(secret).toMatch(/^whsec_/);

    // The invite links' sign-up URL (the product's), {{invite.url}} in the body, and emails on.
    await page.goto(`/waitlists/${waitlist.id}`);
    await page.getByRole("link", { name: "Invitation email" }).click();
    await hydrated(page, "#email-body");
    await page.getByLabel("Body (plain text)", { exact: true }).fill("You're in! Create your account: {{invite.url}}");
    await page.getByLabel("Sign-up URL").fill(`${product.url}/signup`);
    await page.getByLabel("Days an invite link stays good").fill("7");
    await page.getByLabel("Send an invitation email to each signup invited").check();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByTestId("done-notice")).toContainText("Invitation email saved");
    await expect(page.getByTestId("smtp-unset")).toHaveCount(0);

    // Invite the person from their own page.
    await page.goto(`/waitlists/${waitlist.id}/signups/${personId}`);
    await page.getByRole("link", { name: "Invite…" }).click();
    await page.getByRole("button", { name: "Invite this signup", exact: true }).click();
    await expect(page.getByTestId("done-notice")).toHaveText("Invited: 1 signup.");

    // The email, through the real SMTP server, carries the link to the product with the token.
    const emailTo = () => inbox.messages.find((message) => message.to === person.email.toLowerCase());
    await eventually(`the invitation email to ${person.email}`, () => emailTo() !== undefined, 30_000);
    const link = new RegExp(`${product.url}/signup\\?invite=[A-Za-z0-9_.-]+`).exec(emailTo()!.data)?.[0];
    expect(link, emailTo()!.data).toBeDefined();
    expect(inbox.messages).toHaveLength(1);

    // The person follows it: the product checks the token, makes the account, redeems.
    const visitor = await browser.newPage();
    await visitor.goto(link!);
    await expect(visitor.locator("body")).toHaveText(`Welcome, ${person.email}!`);
    expect(product.calls.map((each) => [each.method, each.status])).toEqual([
      ["GET", 200],
      ["POST", 200],
    ]);
    const [looked, redeemed] = product.calls.map((each) => JSON.parse(each.body) as Record<string, unknown>);
    expect(looked).toMatchObject({ state: "valid", waitlist_id: waitlist.id, signup: { email: person.email, status: "invited" } });
    expect(redeemed).toEqual({ ...looked, state: "redeemed", signup: { ...(looked!.signup as object), status: "completed" } });
    expect((await getSignup(waitlist.id, personId, db))!.status).toBe("completed");

    // The webhook receiver gets signup.completed, signed.
    const completedFor = (email: string) => receiver.received.filter((each) => each.body.type === "signup.completed" && (each.body.data as { signup: { email: string } }).signup.email === email);
    await eventually("signup.completed at the receiver", () => completedFor(person.email).length > 0, 30_000);
    expect(completedFor(person.email)[0]!.signatureValid).toBe(true);

    // The admin sees it completed.
    await page.reload();
    await expect(page.getByTestId("signup-status")).toContainText("Completed");
    await expect(page.getByTestId("status-history").locator("li")).toHaveText([/Signed up/, /Invited/, /Completed/]);

    // A second redeem answers the same and changes nothing; the link, followed again, is used up.
    const token = new URL(link!).searchParams.get("invite")!;
    const again = await fetch(`${server.url}/v1/invitations/${token}/redeem`, { method: "POST", headers: { Authorization: `Bearer ${redeemKey.key}` } });
    expect(again.status).toBe(200);
    expect(await again.text()).toBe(product.calls[1]!.body);
    await visitor.goto(link!);
    await expect(visitor.locator("body")).toHaveText("Already used.");
    expect((await signupEvents(personId, db)).map((event) => event.type)).toEqual(["signup.invited", "signup.completed"]);

    // What the redeem key may do besides: complete an invited signup by address (never by filter).
    await applyStatusAction("cli", { action: "invite", selection: { waitlistId: waitlist.id, emails: [byAddress.email] } }, db);
    const asProduct = (method: string, path: string, body?: unknown) =>
      fetch(`${server.url}/v1${path}`, { method, headers: { Authorization: `Bearer ${redeemKey.key}`, "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
    expect((await asProduct("POST", `/waitlist/${waitlist.id}/signup/complete?limit=5`)).status).toBe(403);
    expect((await asProduct("POST", `/waitlist/${waitlist.id}/signup/complete`, { emails: [byAddress.email] })).status).toBe(200);
    // Its signup.completed arrives after the person's (events are sent in order): no second event for the person came before it.
    await eventually("the by-address signup.completed at the receiver", () => completedFor(byAddress.email).length > 0, 30_000);
    expect(completedFor(person.email)).toHaveLength(1);

    // And nothing else: every other /v1 route of the route table is a 403 (the OpenAPI document is public).
    const others = API_ROUTES.filter((route) => route.needsKey && !route.template.startsWith("/invitations/") && !route.template.endsWith("/signup/complete"));
    expect(others.length).toBeGreaterThan(10);
    for (const route of others) {
      const path = route.template.replace("{id}", waitlist.id);
      const answer = await asProduct(route.method, path, route.method === "POST" ? { emails: [seeds[2]!.email] } : undefined);
      expect(answer.status, `${route.method} ${path}`).toBe(403);
      expect(((await answer.json()) as { detail: string }).detail, `${route.method} ${path}`).toMatch(/^This API key lacks the role "waitlist:(view|admin|join)"\.$/);
    }
    expect((await getSignup(waitlist.id, idOf(seeds[2]!.email), db))!.status).toBe("waiting");
    // Nor the dashboard: signing in with it is refused.
    const signIn = await browser.newPage({ baseURL: server.url });
    await signIn.goto("/signin");
    await expect(signIn.getByRole("button", { name: "Sign in" })).toBeEnabled();
    await signIn.getByLabel("API key").fill(redeemKey.key);
    await signIn.getByRole("button", { name: "Sign in" }).click();
    await expect(signIn.locator("#api-key-error")).toHaveText("This API key does not carry the waitlist:view role, which the dashboard needs.");
    await Promise.all([visitor.close(), signIn.close()]);
  } finally {
    await context.close();
    await new Promise<void>((resolve) => product.server.close(() => resolve()));
  }
});
