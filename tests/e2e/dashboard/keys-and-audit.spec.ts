import { expect, test, type Browser, type Page } from "@playwright/test";
import { listApiKeys, verifyApiKey, VIEW_ROLE } from "@/lib/domain/keys/queries";
import { listAudit, recordAudit } from "@/lib/domain/audit/log";
import { createSession } from "@/lib/domain/sessions";
import { SESSION_COOKIE } from "@/lib/dashboard/session-cookie";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { baseURL, createKey, forbidDialogs, signIn, unique } from "../support/support";

// Keys and the audit log in the dashboard (admins only), and the rules every dashboard write
// follows (lib/dashboard/admin-post.ts, and the create-key server action): a view session sees no
// control and is refused on a forged POST, and a cross-site POST is refused.

/** Waits until React has hydrated the create form, so that it submits through the action's fetch (with its Next-Action header) rather than as a plain form post. */
async function waitForCreateForm(page: Page) {
  await page.waitForFunction(() => Object.keys(document.querySelector("#key-name") ?? {}).some((key) => key.startsWith("__reactProps")));
}

const keyNamed = async (name: string) => (await listApiKeys()).find((key) => key.name === name);
const keyRow = (page: Page, name: string) => page.getByTestId("keys-table").locator("tbody tr").filter({ has: page.getByRole("rowheader", { name }) });

test("an admin creates a key: it is shown once, in the response that made it, with a copy button, works, and is audited", async ({ page, context, browser }) => {
  const dialogs = forbidDialogs(page);
  const admin = await signIn(context, ["waitlist:admin"]);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API keys" }).click();
  await expect(page).toHaveURL("/keys");
  await expect(keyRow(page, admin.name)).toContainText("(this session)");

  const name = unique("reporting");
  await waitForCreateForm(page);
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Role", { exact: true }).selectOption("waitlist:admin");
  await page.getByLabel("Expires", { exact: true }).selectOption("30d");
  const [request] = await Promise.all([
    page.waitForRequest((sent) => sent.method() === "POST" && new URL(sent.url()).pathname === "/keys"),
    page.getByRole("button", { name: "Create key" }).click(),
  ]);
  await expect(page.getByTestId("new-key")).toBeVisible();
  const shown = (await page.getByTestId("new-key").textContent())!;
  // Nothing in the URL: the key came in the action's own response.
  await expect(page).toHaveURL("/keys");
  expect(shown).toMatch(/^wl_[A-Za-z0-9_-]{43}$/);
  await page.getByRole("button", { name: "Copy the new key" }).click();
  await expect(page.getByRole("button", { name: "Copy the new key" })).toContainText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown);

  const created = (await keyNamed(name))!;
  expect(created).toMatchObject({ roles: ["waitlist:admin"], status: "active" });
  expect(Date.parse(created.expires_at!) - Date.now()).toBeGreaterThan(29 * 86_400_000);
  expect((await verifyApiKey(shown, VIEW_ROLE)).ok).toBe(true);
  await expect(keyRow(page, name)).toContainText(`${created.prefix}…`);
  await expect(keyRow(page, name)).toContainText("waitlist:admin");

  // Shown once: the same URL again shows no key, nor does another session of the same admin key.
  await page.reload();
  await expect(page.getByTestId("new-key")).toHaveCount(0);
  expect(await page.content()).not.toContain(shown);
  const other = await browser.newContext({ baseURL });
  const { token } = await createSession(admin.id);
  await other.addCookies([{ name: SESSION_COOKIE, value: token, url: baseURL, httpOnly: true, sameSite: "Lax" }]);
  const otherPage = await other.newPage();
  await otherPage.goto("/keys");
  await expect(otherPage.getByTestId("keys-table")).toContainText(name);
  expect(await otherPage.content()).not.toContain(shown);
  await other.close();


  const audit = (await listAudit({ action: "key.create", actor: admin.id, limit: 1 }))[0]!;
  expect(audit).toMatchObject({ actor: admin.name, actorKeyId: admin.id, target: created.id });
  expect(JSON.stringify(audit)).not.toContain(shown);
  await page.goto(`/audit?action=key.create&actor=${encodeURIComponent(admin.name)}`);
  await expect(page.getByTestId("audit-table").locator("tbody tr")).toHaveCount(1);
  await expect(page.getByTestId("audit-table")).toContainText(`created key "${name}"`);
  // The same action sent again carries its new key in its own response body, and only there.
  const again = await page.request.post("/keys", {
    headers: { origin: baseURL!, "next-action": (await request.allHeaders())["next-action"]!, "content-type": (await request.allHeaders())["content-type"]!, accept: "text/x-component" },
    data: withName(request.postDataBuffer()!, unique("again")),
    maxRedirects: 0,
  });
  expect(again.status()).toBe(200);
  expect(again.headers()["cache-control"]).toMatch(/no-store/);
  const sent = (await again.text()).match(/wl_[A-Za-z0-9_-]{43}/)?.[0];
  expect(sent).toBeDefined();
  expect((await verifyApiKey(sent!, VIEW_ROLE)).ok).toBe(true);
  expect(await (await page.request.get("/keys")).text()).not.toContain(sent);
  expect(dialogs).toEqual([]);
});

test("without JavaScript the create form still works: the page its POST returns shows the key, once", async ({ browser }) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const admin = await signIn(context, ["waitlist:admin"]);
  const page = await context.newPage();
  await page.goto("/keys");
  const name = unique("no script");
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByTestId("new-key")).toHaveText(/^wl_[A-Za-z0-9_-]{43}$/);
  const shown = (await page.getByTestId("new-key").textContent())!;
  expect((await verifyApiKey(shown, VIEW_ROLE)).ok).toBe(true);
  expect(await keyNamed(name)).toMatchObject({ roles: ["waitlist:view"], status: "active" });
  expect((await listAudit({ action: "key.create", actor: admin.id, limit: 1 }))[0]).toMatchObject({ target: (await keyNamed(name))!.id });
  await page.goto("/keys");
  await expect(page.getByTestId("new-key")).toHaveCount(0);
  expect(await page.content()).not.toContain(shown);
  await context.close();
});

test("an admin revokes a key through its confirmation page; revoking the session's own key warns and signs out", async ({ page, context }) => {
  const dialogs = forbidDialogs(page);
  const admin = await signIn(context, ["waitlist:admin"]);
  const victim = await createKey();
  await page.goto("/keys");
  await page.getByRole("link", { name: `Revoke ${victim.name} (${victim.prefix}…)` }).click();
  await expect(page).toHaveURL(`/keys/${victim.id}/revoke`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Revoke the key “${victim.name}”?`);
  await expect(page.getByTestId("own-key-warning")).toHaveCount(0);
  expect((await verifyApiKey(victim.key, VIEW_ROLE)).ok).toBe(true); // the GET changed nothing
  await page.getByRole("button", { name: "Revoke key" }).click();
  await expect(page).toHaveURL("/keys?done=revoked");
  await expect(page.getByTestId("done-notice")).toHaveText("Key revoked: it no longer works, and its sessions have ended.");
  await expect(keyRow(page, victim.name)).toContainText("revoked");
  await expect(keyRow(page, victim.name).getByRole("link", { name: /^Revoke/ })).toHaveCount(0);
  const v1 = await page.request.get("/v1/waitlist", { headers: { authorization: `Bearer ${victim.key}` } });
  expect(v1.status()).toBe(401);
  expect((await listAudit({ action: "key.revoke", actor: admin.id, limit: 1 }))[0]).toMatchObject({ target: victim.id, actor: admin.name });

  await page.goto(`/keys/${admin.id}/revoke`);
  await expect(page.getByTestId("own-key-warning")).toContainText("This is the key of your current session");
  await page.getByRole("button", { name: "Revoke my own key and sign out" }).click();
  await expect(page).toHaveURL("/signin?reason=revoked");
  expect(await keyNamed(admin.name)).toMatchObject({ status: "revoked" });
  expect(dialogs).toEqual([]);
});

/** A create-key action's multipart body with another key name (React prefixes the form's fields, as in `_1_name`). */
function withName(body: Buffer, name: string): Buffer {
  const renamed = Buffer.from(body.toString("latin1").replace(/(name="(?:_\d+_)?name"\r\n\r\n)[^\r]*/, `$1${name}`), "latin1");
  expect(renamed.toString("latin1")).toContain(name);
  return renamed;
}

/** The create-key action as the admin's browser sends it (its action id and form body), captured from the real form. */
async function captureCreateKeyAction(browser: Browser, name: string) {
  const context = await browser.newContext({ baseURL });
  await signIn(context, ["waitlist:admin"]);
  const page = await context.newPage();
  await page.goto("/keys");
  await waitForCreateForm(page);
  await page.getByLabel("Name", { exact: true }).fill(name);
  const [request] = await Promise.all([page.waitForRequest((sent) => sent.method() === "POST" && new URL(sent.url()).pathname === "/keys"), page.getByRole("button", { name: "Create key" }).click()]);
  await expect(page.getByTestId("new-key")).toBeVisible();
  const headers = await request.allHeaders();
  await context.close();
  return { action: headers["next-action"]!, contentType: headers["content-type"]!, body: request.postDataBuffer()! };
}

test("a view session sees no write control, gets 404 on the admin pages, and is refused on a forged POST", async ({ page, context, browser }) => {
  const captured = await captureCreateKeyAction(browser, unique("captured"));
  await signIn(context);
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "API reference" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "API keys" })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "Audit log" })).toHaveCount(0);
  await expect(page.locator('form[method="post" i][action^="/"]')).toHaveCount(0);

  const victim = await createKey();
  for (const path of ["/keys", "/audit", `/keys/${victim.id}/revoke`]) {
    const response = await page.goto(path);
    expect(response!.status(), path).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
    await expect(page.locator('form[method="post" i][action^="/"], button:has-text("Revoke"), button:has-text("Create")')).toHaveCount(0);
  }

  // The admin's create-key action replayed with this view session's cookie, under another name.
  const name = unique("forged");
  const body = withName(captured.body, name);
  const create = await page.request.post("/keys", { headers: { origin: baseURL!, "next-action": captured.action, "content-type": captured.contentType, accept: "text/x-component" }, data: body, maxRedirects: 0 });
  expect(create.status()).toBeLessThan(500);
  expect(await create.text()).toContain("does not carry the waitlist:admin role");
  const revoke = await page.request.post("/keys/revoke", { form: { id: victim.id }, headers: { origin: baseURL }, maxRedirects: 0 });
  expect(revoke.status()).toBe(403);
  expect(await keyNamed(name)).toBeUndefined();
  expect((await verifyApiKey(victim.key, VIEW_ROLE)).ok).toBe(true);
});

test("a cross-origin POST fails, with the admin's cookie or from a real page on another site", async ({ page, context }) => {
  const admin = await signIn(context, ["waitlist:admin"]);
  const name = unique("cross-site");
  const forged = await page.request.post("/keys", { form: { name, role: "waitlist:admin" }, headers: { origin: "http://evil.example" }, maxRedirects: 0 });
  expect(forged.status()).toBe(403);
  expect(await forged.text()).toContain("comes from http://evil.example");
  const noOrigin = await page.request.post("/keys", { form: { name, role: "waitlist:admin" }, headers: { "sec-fetch-site": "cross-site" }, maxRedirects: 0 });
  expect(noOrigin.status()).toBe(403);

  // A page on another site that submits a form to us: the browser sends no cookie (SameSite=Lax),
  // and the server refuses the cross-site write before any route sees it; no key is made.
  await page.route("http://evil.example/**", (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<form method="post" action="${baseURL}/keys"><input name="name" value="${name}"><input name="role" value="waitlist:admin"></form><script>document.forms[0].submit()</script>`,
    }),
  );
  await page.goto("http://evil.example/");
  await page.waitForURL((url) => url.origin === baseURL);
  expect(new URL(page.url()).pathname).toBe("/keys");
  await expect(page.locator("body")).toContainText("Refused: the request comes from http://evil.example");
  expect(await keyNamed(name)).toBeUndefined();
  expect(await listAudit({ actor: admin.id, limit: 10 })).toEqual([]);
});

test("an admin's invalid form is refused naming the field, and nothing is created", async ({ page, context }) => {
  await signIn(context, ["waitlist:admin"]);
  const before = (await listApiKeys()).length;
  await page.goto("/keys");
  const error = page.locator("#create-key-error");
  /** Submits the form with `name`, and a select's option given another value (what a forged form could send). */
  const submit = async (name: string, forged?: { select: string; value: string }) => {
    await page.getByLabel("Name", { exact: true }).fill(name);
    if (forged) {
      await page.locator(forged.select).evaluate((select: HTMLSelectElement, value) => {
        select.options[select.selectedIndex]!.value = value;
      }, forged.value);
    }
    await page.getByRole("button", { name: "Create key" }).click();
  };
  await submit("   ");
  await expect(error).toHaveText("Invalid name: must not be empty. Nothing was changed.");
  await submit("x", { select: "#key-role", value: "waitlist:owner" });
  await expect(error).toHaveText(/^Invalid role: unknown role "waitlist:owner"/);
  await page.reload();
  await submit("x", { select: "#key-expires-in", value: "1y" });
  await expect(error).toHaveText(/^Invalid expires-in: /);
  await expect(page.getByTestId("new-key")).toHaveCount(0);
  const unknown = await page.request.post("/keys/revoke", { form: { id: "no-such-key" }, headers: { origin: baseURL }, maxRedirects: 0 });
  expect(unknown.status()).toBe(404);
  expect(await listApiKeys()).toHaveLength(before);
});

test("the audit page lists rows newest first, filters by action and actor, and pages", async ({ page, context }) => {
  await signIn(context, ["waitlist:admin"]);
  const actor = { keyId: "audit-e2e", keyName: unique("auditor") };
  for (let index = 0; index < 55; index++) {
    await recordAudit({ actor, action: index % 5 === 0 ? "waitlist.delete" : "waitlist.update", target: `target-${index}`, summary: `change ${index}` });
  }
  await page.goto("/audit");
  await page.getByLabel("Actor").fill(actor.keyName);
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/\/audit\?action=&actor=/);
  const rows = page.getByTestId("audit-table").locator("tbody tr");
  await expect(rows).toHaveCount(50);
  await expect(rows.first()).toContainText("change 54");
  await expect(rows.last()).toContainText("change 5");
  await page.getByTestId("audit-older").click();
  await expect(rows).toHaveCount(5);
  await expect(rows.first()).toContainText("change 4");
  await expect(page.getByTestId("audit-older")).toHaveCount(0);

  await page.getByLabel("Action").selectOption("waitlist.delete");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(rows).toHaveCount(11);
  for (const text of await rows.allTextContents()) expect(text).toContain("waitlist.delete");
  // Bad values in the URL are dropped, not errors.
  const response = await page.goto(`/audit?action=key.steal&actor=${encodeURIComponent(actor.keyName)}&before=x`);
  expect(response!.status()).toBe(200);
  await expect(rows).toHaveCount(50);
});

test("audit rows name their waitlist or key with a link, say what was erased or deleted in plain text, format numbers, and keep ids on one line", async ({ page, context }) => {
  const admin = await signIn(context, ["waitlist:admin"]);
  const actor = { keyId: admin.id, keyName: admin.name };
  const waitlist = await createWaitlist({ name: unique("Audited list"), website: "https://audited.example" });
  const gone = "00000000-0000-4000-8000-00000000dead";
  const hash = "ab".repeat(32);
  await recordAudit({ actor, action: "signups.import", target: waitlist.id, summary: "imported 300000 signups, skipped 1234 duplicates (a CSV file)" });
  await recordAudit({ actor, action: "waitlist.delete", target: gone, summary: "deleted \"Old list\" and its 12000 signups" });
  await recordAudit({ actor, action: "signup.erase", target: hash, summary: "erased 2 signups from 2 waitlists" });
  await recordAudit({ actor, action: "key.create", target: admin.id, summary: `created key "${admin.name}" ${admin.prefix}… (waitlist:admin; never expires)` });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/audit?actor=${encodeURIComponent(admin.id)}`);
  const rows = page.getByTestId("audit-table").locator("tbody tr");
  await expect(rows).toHaveCount(4);
  const [key, erase, deleted, imported] = [rows.nth(0), rows.nth(1), rows.nth(2), rows.nth(3)];

  await expect(imported.getByRole("link", { name: waitlist.name })).toHaveAttribute("href", `/waitlists/${waitlist.id}`);
  await expect(imported).toContainText("imported 300,000 signups, skipped 1,234 duplicates");
  await expect(deleted.getByTestId("audit-target")).toHaveText(/^deleted waitlist 00000000…$/);
  await expect(deleted.getByTestId("audit-target").getByRole("link")).toHaveCount(0);
  await expect(deleted).toContainText("its 12,000 signups");
  await expect(erase.getByTestId("audit-target")).toHaveText("erased address abababab…");
  await expect(erase.getByTestId("audit-target").getByRole("link")).toHaveCount(0);
  await expect(erase.getByTitle(hash)).toBeVisible();
  await expect(key.getByRole("link", { name: admin.name })).toHaveAttribute("href", `/keys#key-${admin.id}`);
  // Ids and hashes are shortened to one line each, the whole value in their title.
  for (const cell of [erase.getByTitle(hash), key.getByTestId("audit-target").getByTitle(admin.id), key.locator("td").nth(1).getByTitle(admin.id)]) {
    const box = (await cell.boundingBox())!;
    expect(box.height, "one line").toBeLessThan(24);
  }
  await key.getByRole("link", { name: admin.name }).click();
  await expect(page).toHaveURL(`/keys#key-${admin.id}`);
  await expect(page.locator(`#key-${admin.id}`)).toBeVisible();
});
