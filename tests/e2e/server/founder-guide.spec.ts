import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { startSmtpInbox, type SmtpInbox } from "../support/smtp-inbox";
import { hydrated } from "../support/support";
import { startTestServer, type TestServer } from "../support/test-server";
import { eventually } from "../support/webhook-receiver";

// Issue 33's "done when": the founder's guide (/docs/launch) followed step by step on a fresh database,
// in Chromium, doing only what the guide says, to a redeemed invitation and a funnel that shows it.
// The server of its own has email configured (a real SMTP server) as step 4 asks; the product is the
// example server of /docs/connect-your-product, which the guide links to.
// On its way it takes the guide's screenshots (public/docs/launch/*.png, committed and written again on
// every run): a fixed viewport, light mode, no animations or caret, so that a run changes them only
// where the app did. Pixels are never compared.

const PORT_OFFSET = 48;
const publicUrl = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100) + PORT_OFFSET}`;

/** The screenshots the walk takes, by file name: the guide shows exactly these. */
const SCREENSHOTS = ["new-waitlist.png", "join-page-settings.png", "join-page.png", "invitation-email.png", "invite-confirmation.png", "funnel.png"] as const;
const SCREENSHOT_DIR = "public/docs/launch";
const GUIDE_PAGE = "app/docs/(guide)/launch/page.mdx";
const VIEWPORT = { width: 1280, height: 800 };

/** Writes one of the guide's screenshots: the viewport, or one element of the page. */
async function screenshot(page: Page, name: (typeof SCREENSHOTS)[number], element?: Locator): Promise<void> {
  await page.evaluate(() => document.fonts.ready);
  await (element ?? page).screenshot({ path: join(SCREENSHOT_DIR, name), type: "png", animations: "disabled", caret: "hide", scale: "css" });
}

let server: TestServer;
let inbox: SmtpInbox;

test.beforeAll(async () => {
  inbox = await startSmtpInbox();
  server = await startTestServer({
    portOffset: PORT_OFFSET,
    name: "founder-guide",
    env: { WEB_CONCURRENCY: "1", REQUEST_LOG: "off", DELIVERY_POLL: "50ms", SMTP_URL: inbox.url, MAIL_FROM: "Acme <hello@acme.example>", PUBLIC_URL: publicUrl },
  });
});

test.afterAll(async () => {
  await server?.stop();
  await inbox?.close();
});

/** `npm run cli -- …` on the server's database, as the guide's commands are run; its stdout. */
function cli(...args: string[]): string {
  const result = spawnSync(process.execPath, ["--import", "tsx", "lib/cli/main.ts", ...args], { env: { ...process.env, DATABASE_PATH: server.databasePath }, encoding: "utf8" });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout;
}

/** The product of /docs/connect-your-product: checks the invite token, "creates the account", redeems. */
async function startProduct(redeemKey: string): Promise<{ url: string; server: Server }> {
  const headers = { Authorization: `Bearer ${redeemKey}` };
  const signupPage = async (request: IncomingMessage, response: ServerResponse) => {
    const { pathname, searchParams } = new URL(request.url!, "http://localhost");
    if (pathname !== "/signup") return response.writeHead(404).end();
    const url = `${server.url}/v1/invitations/${encodeURIComponent(searchParams.get("invite") ?? "")}`;
    const invitation = (await fetch(url, { headers }).then((answer) => answer.json())) as { state?: string; detail?: string; signup: { email: string } };
    if (invitation.state !== "valid") return response.writeHead(403).end(invitation.detail ?? "Already used.");
    const redeemed = await fetch(`${url}/redeem`, { method: "POST", headers });
    response.writeHead(redeemed.ok ? 200 : 409).end(redeemed.ok ? `Welcome, ${invitation.signup.email}!` : "Try again.");
  };
  const product = createServer((request, response) => void signupPage(request, response));
  await new Promise<void>((resolve) => product.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(product.address() as AddressInfo).port}`, server: product };
}

/** The first link of the newest email to `to` that matches `pattern`. */
async function linkInEmail(to: string, pattern: RegExp, what: string): Promise<string> {
  let link: string | undefined;
  await eventually(what, () => (link = inbox.messages.filter((message) => message.to === to).map((message) => pattern.exec(message.data)?.[0]).findLast(Boolean)) !== undefined, 30_000);
  return link!;
}

async function stepDone(page: Page, step: string): Promise<string | null> {
  return page.getByTestId("launch-checklist").locator(`li[data-step="${step}"]`).getAttribute("data-done");
}

test("the founder's guide, followed step by step, takes a fresh database to a redeemed invitation and a funnel that shows it", async ({ browser }) => {
  test.setTimeout(300_000);
  const pageOptions = { viewport: VIEWPORT, colorScheme: "light", reducedMotion: "reduce", deviceScaleFactor: 1 } as const;
  const page = await browser.newPage({ baseURL: server.url, ...pageOptions });
  const person = await browser.newPage(pageOptions);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });

  // 1. Start the app: the key from `keys create`, pasted into the sign-in page.
  const adminKey = (JSON.parse(cli("keys", "create", "--name", "founder", "--role", "waitlist:admin", "--json")) as { key: string }).key;
  await page.goto("/signin");
  await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
  await page.getByLabel("API key").fill(adminKey);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Waitlists");

  // 2. Create the waitlist: New waitlist, its name and website, Create waitlist; the checklist is there.
  await page.getByText("New waitlist").click();
  await page.getByLabel("Name", { exact: true }).fill("Acme");
  await page.getByLabel("Website").fill("https://acme.example");
  await page.getByRole("button", { name: "Create waitlist" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Acme");
  const waitlistId = /\/waitlists\/([0-9a-f-]{36})/.exec(page.url())![1]!;
  await expect(page.getByTestId("launch-checklist").locator("summary")).toHaveText("Launch checklist: 1 of 6 done");
  expect(await stepDone(page, "email")).toBe("true");
  await screenshot(page, "new-waitlist.png");

  // 3. Joining: the page in your brand, a form field, Joining: Open, Save.
  await page.getByRole("link", { name: "Joining", exact: true }).click();
  await page.getByLabel("Headline (instead of “Join the … waitlist”)").fill("Be first to try Acme");
  await page.getByLabel("Label of field 1").fill("Company");
  await page.getByLabel("Open: anyone with the link can join").check();
  // 4. Email verification (email is configured on this server).
  await page.getByLabel("Email verification: send each new signup a link to confirm the address").check();
  await screenshot(page, "join-page-settings.png");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("done-notice")).toBeVisible();

  // 5. A link that says where it came from; a person joins through it and confirms the address.
  await person.goto(`${server.url}/join/${waitlistId}?utm_source=newsletter&utm_campaign=launch`);
  await expect(person.getByRole("heading", { level: 1 })).toHaveText("Be first to try Acme");
  await person.getByLabel("Email address").fill("ada@customer.example");
  await person.getByLabel("Company").fill("Initech");
  // The anti-spam challenge (on by default) is solved in the browser before the form is sent.
  await expect(person.locator('input[name="altcha"]')).toHaveValue(/.{20,}/, { timeout: 30_000 });
  await person.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await screenshot(person, "join-page.png");
  await person.getByRole("button", { name: "Join the waitlist" }).click();
  await expect(person.getByRole("heading", { level: 1 })).toHaveText("Check your inbox", { timeout: 30_000 });
  await person.goto(await linkInEmail("ada@customer.example", new RegExp(`${publicUrl}/join/${waitlistId}/confirm\\?token=\\S+`), "the confirmation email"));
  await person.getByRole("button", { name: "Confirm my address" }).click();
  await expect(person.getByRole("heading", { level: 1 })).toHaveText("Your address is confirmed");

  // 6. The product's key (the guide's CLI command), and the invitation email: {{invite.url}}, the sign-up URL, on; a test to me.
  const redeemKey = (JSON.parse(cli("keys", "create", "--name", "product sign-up", "--role", "waitlist:redeem", "--json")) as { key: string }).key;
  const product = await startProduct(redeemKey);
  try {
    await page.goto(`/waitlists/${waitlistId}`);
    await page.getByRole("link", { name: "Invitation email" }).click();
    await hydrated(page, "#email-body");
    await page.getByLabel("Body (plain text)", { exact: true }).fill("You're in, {{email}}! Create your Acme account: {{invite.url}}");
    await page.getByLabel("Sign-up URL").fill(`${product.url}/signup`);
    await page.getByLabel("Send an invitation email to each signup invited").check();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByTestId("done-notice")).toContainText("Invitation email saved");
    await screenshot(page, "invitation-email.png");
    await page.getByLabel("Your address").fill("founder@acme.example");
    await page.getByRole("button", { name: "Send a test to me" }).click();
    await expect(page.getByTestId("send-test-result")).not.toBeEmpty();
    await linkInEmail("founder@acme.example", /\[Test\]/, "the test invitation");

    // Invite the next 50: the confirmation says how many emails go out.
    await page.goto(`/waitlists/${waitlistId}`);
    await page.getByRole("button", { name: "Invite next…" }).click();
    await expect(page.getByText("This sends 1 invitation email")).toBeVisible();
    await screenshot(page, "invite-confirmation.png");
    // The confirmation's button names whom it invites: "Invite this signup" for one, "Invite 50 signups" for more.
    await page.getByRole("button", { name: /^Invite (this signup|[\d,]+ signups)$/ }).click();

    // The person's invitation carries the link to the product, which redeems it.
    await person.goto(await linkInEmail("ada@customer.example", new RegExp(`${product.url}/signup\\?invite=[A-Za-z0-9_.-]+`), "the invitation email"));
    await expect(person.locator("body")).toHaveText("Welcome, ada@customer.example!");
  } finally {
    await new Promise<void>((resolve) => product.server.close(() => resolve()));
  }

  // 7. The funnel: joined, verified, invited, completed, from the newsletter.
  await page.goto(`/waitlists/${waitlistId}`);
  await page.getByRole("link", { name: "Funnel" }).click();
  for (const stage of ["joined", "verified", "invited", "completed"]) await expect(page.getByTestId(`funnel-${stage}`), stage).toHaveText("1");
  await expect(page.getByTestId("funnel-source-newsletter")).toContainText("newsletter");
  await screenshot(page, "funnel.png");

  // Every step of the checklist is done: it is gone.
  await page.goto(`/waitlists/${waitlistId}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Acme");
  await expect(page.getByTestId("launch-checklist")).toHaveCount(0);
  await Promise.all([page.close(), person.close()]);
});

test("the guide shows the screenshots this walk takes, and each is in public/docs/launch", () => {
  const shown = [...readFileSync(GUIDE_PAGE, "utf8").matchAll(/src="\/docs\/launch\/([^"]+)"/g)].map((match) => match[1]!);
  expect(shown.toSorted()).toEqual([...SCREENSHOTS].toSorted());
  for (const name of shown) expect(existsSync(join(SCREENSHOT_DIR, name)), `${SCREENSHOT_DIR}/${name}`).toBe(true);
  // No stale file a renamed screenshot left behind.
  expect(readdirSync(SCREENSHOT_DIR).toSorted()).toEqual([...SCREENSHOTS].toSorted());
});
