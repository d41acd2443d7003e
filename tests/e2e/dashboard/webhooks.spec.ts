import { expect, test, type Page } from "@playwright/test";
import { listAudit } from "@/lib/domain/audit/log";
import { listDeliveries } from "@/lib/domain/deliveries/queries";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { addEndpoint, getEndpointOrThrow, listEndpoints, openEndpointSecret } from "@/lib/domain/webhooks/endpoints";
import { baseURL, forbidDialogs, insertSignups, signIn, unique } from "../support/support";
import { eventually, startReceiver } from "../support/webhook-receiver";

// Webhook endpoints and the delivery log in the dashboard (admins only), against the shared
// production server's sender and a real receiver on 127.0.0.1 that checks every signature.

async function fixture(count: number) {
  const waitlist = await createWaitlist({ name: unique("Webhook list"), website: "https://hooks.example" });
  const tag = waitlist.id.slice(0, 6);
  const emails = Array.from({ length: count }, (_, index) => `w.${index}.${tag}@example.com`);
  await insertSignups(
    waitlist.id,
    emails.map((email, index) => ({ email, verified: true, referral: false, customInputs: [], createdAt: new Date(Date.UTC(2026, 0, 1, index)) })),
  );
  return { waitlist, emails };
}

/** Waits until React has hydrated the page's forms, so that a server action's form submits through its fetch. */
async function waitForHydration(page: Page) {
  await page.waitForFunction(() => Object.keys(document.querySelector("[data-testid=send-test-result]") ?? {}).some((key) => key.startsWith("__reactProps")));
}

const rows = (page: Page) => page.getByTestId("deliveries-table").locator("tbody tr");

/**
 * Loads the log again until `check` holds for its rows (the sender runs on its own clock). A new
 * navigation to the same URL, each with its own timeout: `page.reload()` right after a client-side
 * navigation (the link that led here) once never resolved though the page had loaded, and took the
 * whole wait with it.
 */
async function reloadUntil(page: Page, what: string, check: () => Promise<boolean>) {
  await expect(async () => {
    await page.goto(page.url(), { timeout: 10_000 });
    expect(await check(), what).toBe(true);
  }).toPass({ timeout: 30_000, intervals: [500, 1000] });
}

test("an admin adds an endpoint, sees its secret once, invites signups and sees the deliveries succeed, signed", async ({ page, context }) => {
  const dialogs = forbidDialogs(page);
  const admin = await signIn(context, ["waitlist:admin"]);
  const { waitlist, emails } = await fixture(3);
  let secret = "";
  const receiver = await startReceiver(() => secret);
  try {
    await page.goto("/");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Webhooks" }).click();
    await expect(page).toHaveURL("/webhooks");
    await page.waitForFunction(() => Object.keys(document.querySelector("#endpoint-url") ?? {}).some((key) => key.startsWith("__reactProps")));
    await page.getByLabel("URL", { exact: true }).fill(receiver.url);
    await page.getByLabel("Waitlist", { exact: true }).selectOption(waitlist.id);
    await page.getByRole("checkbox", { name: "signup.invited" }).check();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page.getByTestId("new-secret")).toBeVisible();
    secret = (await page.getByTestId("new-secret").textContent())!;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    await expect(page.getByText("it is shown only this once")).toBeVisible();
    const endpoint = (await listEndpoints()).find((each) => each.url === receiver.url)!;
    expect(endpoint).toMatchObject({ waitlistId: waitlist.id, eventTypes: ["signup.invited"], enabled: true });
    // Stored encrypted (db/sealed-secret.ts), opening to the secret shown.
    expect((await getEndpointOrThrow(endpoint.id)).secret).toMatch(/^sealed:v1:/);
    expect(openEndpointSecret(await getEndpointOrThrow(endpoint.id))).toBe(secret);
    expect((await listAudit({ action: "webhook.create", actor: admin.id, limit: 1 }))[0]).toMatchObject({ target: endpoint.id });
    // Shown once: reloading the page does not show it again.
    await page.reload();
    await expect(page.getByTestId("new-secret")).toHaveCount(0);
    expect(await page.content()).not.toContain(secret);
    const row = page.getByTestId("endpoints-table").locator(`tr[data-endpoint-id="${endpoint.id}"]`);
    await expect(row).toContainText(waitlist.name);
    await expect(row).toContainText("signup.invited");
    await expect(row.getByTestId("endpoint-state")).toHaveText("enabled");

    // Invite the three from the waitlist page.
    await page.goto(`/waitlists/${waitlist.id}`);
    await page.getByRole("spinbutton", { name: /Invite the next/ }).fill("3");
    await page.getByRole("button", { name: "Invite next…" }).click();
    await page.getByRole("button", { name: "Invite 3 signups", exact: true }).click();
    await expect(page.getByTestId("done-notice")).toHaveText("Invited: 3 signups.");

    await eventually("three signed deliveries", () => receiver.ids().size === 3, 30_000);
    expect(receiver.received.every((each) => each.signatureValid && each.body.type === "signup.invited")).toBe(true);
    expect(new Set(receiver.received.map((each) => (each.body.data as { signup: { email: string } }).signup.email))).toEqual(new Set(emails));

    await page.getByRole("link", { name: "Deliveries", exact: true }).click();
    await expect(page).toHaveURL(`/waitlists/${waitlist.id}/deliveries`);
    await reloadUntil(page, "three succeeded rows", async () => (await rows(page).count()) === 3 && (await page.locator('tr[data-state="succeeded"]').count()) === 3);
    await expect(rows(page).first()).toContainText("signup.invited");
    await expect(rows(page).first()).toContainText(receiver.url);
    await expect(rows(page).first().getByTestId("delivery-response")).toHaveText("200");
    // The filters are in the URL.
    await page.getByLabel("State").selectOption("failed");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(`/waitlists/${waitlist.id}/deliveries?state=failed&type=`);
    await expect(page.getByText("No deliveries match these filters.")).toBeVisible();

    // Send test posts a signed webhook.test at once and says what came back (nothing is recorded).
    await page.goto("/webhooks");
    await waitForHydration(page);
    await page.getByRole("button", { name: `Send a test event to ${receiver.url}` }).click();
    await expect(page.locator(`tr[data-endpoint-id="${endpoint.id}"]`).getByTestId("send-test-result")).toHaveText("Test event delivered: HTTP 200.");
    expect(receiver.received.filter((each) => each.body.type === "webhook.test").map((each) => each.signatureValid)).toEqual([true]);
    expect(await listDeliveries({ endpoint: endpoint.id })).toHaveLength(3);

    // Rotating shows a new secret once; later deliveries are signed with it.
    await page.goto(`/webhooks/${endpoint.id}/rotate`);
    await page.waitForFunction(() => Object.keys(document.querySelector("form input[name=id]") ?? {}).some((key) => key.startsWith("__reactProps")));
    await page.getByRole("button", { name: "Rotate secret" }).click();
    await expect(page.getByTestId("new-secret")).toBeVisible();
    const rotated = (await page.getByTestId("new-secret").textContent())!;
    expect(rotated).not.toBe(secret);
    expect(openEndpointSecret(await getEndpointOrThrow(endpoint.id))).toBe(rotated);
    expect((await listAudit({ action: "webhook.rotate_secret", actor: admin.id, limit: 1 }))[0]).toMatchObject({ target: endpoint.id });

    // Removing goes through its confirmation page.
    await page.goto("/webhooks");
    await page.getByRole("link", { name: `Remove ${receiver.url}` }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Remove this webhook endpoint?");
    await page.getByRole("button", { name: "Remove endpoint" }).click();
    await expect(page.getByTestId("done-notice")).toHaveText("Endpoint removed, with its deliveries.");
    expect((await listEndpoints()).some((each) => each.id === endpoint.id)).toBe(false);
    expect((await listAudit({ action: "webhook.remove", actor: admin.id, limit: 1 }))[0]).toMatchObject({ target: endpoint.id });
  } finally {
    await receiver.close();
  }
  expect(dialogs).toEqual([]);
});

test("a failing endpoint shows its attempts and error; disabled, Resend is refused; enabled again, Resend delivers", async ({ page, context }) => {
  const admin = await signIn(context, ["waitlist:admin"]);
  const { waitlist, emails } = await fixture(1);
  let failing = true;
  let secret = "";
  const receiver = await startReceiver(
    () => secret,
    () => (failing ? { status: 500 } : { status: 204 }),
  );
  try {
    const endpoint = await addEndpoint("cli", { url: receiver.url, waitlist: waitlist.id });
    secret = endpoint.secret;
    await applyStatusAction("cli", { action: "invite", selection: { waitlistId: waitlist.id, emails } });
    await page.goto(`/webhooks`);
    await page.getByRole("link", { name: `Deliveries to ${receiver.url}` }).click();
    await expect(page).toHaveURL(`/deliveries?endpoint=${endpoint.id}`);
    const row = rows(page).first();
    await reloadUntil(page, "a failed attempt waiting for its retry", async () => (await row.getAttribute("data-state")) === "pending" && Number(await row.locator("td").nth(4).textContent()) >= 1);
    await expect(row.getByTestId("delivery-response")).toContainText("500");
    await expect(row.getByTestId("delivery-response")).toContainText("HTTP 500");
    await expect(row.locator("td").nth(6)).not.toHaveText("—");
    expect(receiver.received.every((each) => each.signatureValid)).toBe(true);

    await page.goto("/webhooks");
    await waitForHydration(page);
    await page.getByRole("button", { name: `Send a test event to ${receiver.url}` }).click();
    await expect(page.locator(`tr[data-endpoint-id="${endpoint.id}"]`).getByTestId("send-test-result")).toHaveText("Test event not delivered: HTTP 500: receiver says no");

    // Disabled by hand: its waiting delivery fails, the log says why, and Resend is refused until it is enabled.
    await page.goto("/webhooks");
    await page.getByRole("button", { name: `Disable ${receiver.url}` }).click();
    await expect(page.getByTestId("done-notice")).toContainText("Endpoint disabled");
    await expect(page.locator(`tr[data-endpoint-id="${endpoint.id}"]`).getByTestId("endpoint-state")).toHaveText("disableddisabled by an admin");
    await page.goto(`/deliveries?endpoint=${endpoint.id}`);
    await expect(page.getByTestId("disabled-endpoints")).toContainText(`${receiver.url}: disabled by an admin`);
    await expect(row).toHaveAttribute("data-state", "failed");
    const refused = await page.request.post("/deliveries/resend", { form: { id: (await row.getAttribute("data-delivery-id"))! }, headers: { origin: baseURL }, maxRedirects: 0 });
    expect(refused.status()).toBe(409);
    expect(await refused.text()).toContain("is disabled");

    await page.goto("/webhooks");
    await page.getByRole("button", { name: `Enable ${receiver.url}` }).click();
    await expect(page.getByTestId("done-notice")).toContainText("Endpoint enabled");
    failing = false;
    const before = receiver.received.length;
    await page.goto(`/deliveries?endpoint=${endpoint.id}&state=failed`);
    const id = (await row.getAttribute("data-delivery-id"))!;
    await row.getByRole("button", { name: `Resend delivery ${id}` }).click();
    await expect(page).toHaveURL(`/deliveries?state=failed&endpoint=${endpoint.id}&done=resent`);
    await expect(page.getByTestId("done-notice")).toContainText("Delivery queued again");
    await eventually("the resent delivery", () => receiver.received.slice(before).some((each) => each.signatureValid), 30_000);
    await page.goto(`/deliveries?endpoint=${endpoint.id}`);
    await reloadUntil(page, "the delivery succeeded", async () => (await row.getAttribute("data-state")) === "succeeded");
    await expect(row.getByTestId("delivery-response")).toHaveText("204");
    expect(await listDeliveries({ endpoint: endpoint.id })).toMatchObject([{ state: "succeeded", attempts: 1 }]);
    expect((await listAudit({ action: "delivery.resend", actor: admin.id, limit: 1 }))[0]).toMatchObject({ target: id });
    // The audit log links the resend to the log and the endpoint's changes to its row.
    await page.goto(`/audit?action=delivery.resend&actor=${encodeURIComponent(admin.name)}`);
    await page.getByTestId("audit-target").getByRole("link", { name: "delivery" }).click();
    await expect(rows(page).first()).toHaveAttribute("data-delivery-id", id);
  } finally {
    await receiver.close();
  }
});

test("a view session gets 404 on the pages and 403 on a forged POST; a cross-site POST is 403", async ({ page, context, browser }) => {
  await signIn(context, ["waitlist:view"]);
  const { waitlist } = await fixture(1);
  const endpoint = await addEndpoint("cli", { url: "https://hooks.example/never", waitlist: waitlist.id });
  for (const path of ["/webhooks", `/webhooks/${endpoint.id}/remove`, `/webhooks/${endpoint.id}/rotate`, "/deliveries", `/waitlists/${waitlist.id}/deliveries`, `/waitlists/${waitlist.id}/email`]) {
    expect((await page.goto(path))!.status(), path).toBe(404);
  }
  await page.goto(`/waitlists/${waitlist.id}`);
  await expect(page.getByRole("link", { name: "Deliveries", exact: true })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Invitation email" })).toHaveCount(0);
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Webhooks" })).toHaveCount(0);
  const posts: [string, Record<string, string>][] = [
    ["/webhooks/enabled", { id: endpoint.id, enabled: "false" }],
    ["/webhooks/remove", { id: endpoint.id }],
    ["/deliveries/resend", { id: "1" }],
    [`/waitlists/${waitlist.id}/email/save`, { subject: "Hi", body: "Hello" }],
  ];
  for (const [path, form] of posts) {
    const response = await page.request.post(path, { form, headers: { origin: baseURL }, maxRedirects: 0 });
    expect(response.status(), path).toBe(403);
    expect(await response.text()).toContain("waitlist:admin");
  }
  const admin = await browser.newContext({ baseURL });
  await signIn(admin, ["waitlist:admin"]);
  for (const [path, form] of posts) {
    const response = await admin.request.post(path, { form, headers: { origin: "https://evil.example" }, maxRedirects: 0 });
    expect(response.status(), path).toBe(403);
  }
  await admin.close();
  expect((await getEndpointOrThrow(endpoint.id)).enabled).toBe(true);
});
