import { expect, test, type Page } from "@playwright/test";
import { revokeApiKey } from "@/lib/domain/keys/queries";
import { SESSION_COOKIE_GRACE_MS } from "@/lib/domain/session-lifetime";
import { createSession, SESSION_LIFETIME_MS } from "@/lib/domain/sessions";
import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from "@/lib/dashboard/session-cookie";
import { baseURL, createFixtureWaitlist, createKey, signIn } from "../support/support";

// Each test signs in from its own client address, so failures never add up across tests.
let address = 0;
test.beforeEach(async ({ context }) => {
  address += 1;
  await context.setExtraHTTPHeaders({ "x-forwarded-for": `198.51.100.${address}` });
});

/** Submits the sign-in form and waits for the server's answer. */
async function submitKey(page: Page, key: string) {
  // The form clears itself when an answer arrives: wait for that before typing the next key.
  await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
  await page.getByLabel("API key").fill(key);
  await Promise.all([
    page.waitForResponse((response) => response.request().method() === "POST" && new URL(response.url()).pathname === "/signin"),
    page.getByRole("button", { name: "Sign in" }).click(),
  ]);
}

const signInError = (page: Page) => page.locator("#api-key-error");

test("a dashboard page without a session redirects to sign-in, and sign-in returns to it", async ({ page, context }) => {
  const { waitlist } = await createFixtureWaitlist(3);
  const target = `/waitlists/${waitlist.id}?verified=true&sort=email&dir=asc`;
  const response = await page.request.get(target, { maxRedirects: 0 });
  expect(response.status()).toBe(307);
  expect(response.headers().location).toBe(`/signin?next=${encodeURIComponent(target)}`);

  await page.goto(target);
  await expect(page).toHaveURL(`/signin?next=${encodeURIComponent(target)}`);
  await expect(page.getByRole("heading", { name: "Sign in to Waitlist Admin" })).toBeVisible();
  await submitKey(page, (await createKey()).key);
  await expect(page).toHaveURL(target);
  await expect(page.getByRole("heading", { level: 1, name: waitlist.name })).toBeVisible();

  const cookie = (await context.cookies()).find((candidate) => candidate.name === SESSION_COOKIE)!;
  expect(cookie.httpOnly).toBe(true);
  expect(cookie.sameSite).toBe("Lax");
  expect(cookie.secure).toBe(false); // plain http here; Secure (and __Host-) when the request is https
  // The cookie outlives the 12-hour session by the grace, so that its end can be explained.
  const hoursLeft = (cookie.expires * 1000 - Date.now()) / 3_600_000;
  const cookieHours = (SESSION_LIFETIME_MS + SESSION_COOKIE_GRACE_MS) / 3_600_000;
  expect(hoursLeft).toBeGreaterThan(cookieHours - 0.1);
  expect(hoursLeft).toBeLessThanOrEqual(cookieHours);
  expect((await context.cookies()).map((candidate) => candidate.name)).not.toContain(SECURE_SESSION_COOKIE);
});

test("a sign-in over HTTPS (a trusted proxy says so) sets a __Host- cookie: Secure, Path=/, no Domain", async ({ page, context }) => {
  // Behind that proxy the browser is on https://, so its form posts say so in Origin (the server
  // refuses a write whose Origin is not the request's own origin, lib/server/refuse.ts).
  const httpsOrigin = baseURL.replace(/^http:/, "https:");
  await context.setExtraHTTPHeaders({ "x-forwarded-for": "198.51.100.200", "x-forwarded-proto": "https", origin: httpsOrigin });
  // Over HTTPS only the __Host- cookie counts: a plain one (which plain HTTP could have planted) does not.
  await context.addCookies([{ name: SESSION_COOKIE, value: (await createSession((await createKey()).id)).token, url: baseURL }]);
  await page.goto("/");
  await expect(page).toHaveURL("/signin");

  await context.clearCookies();
  await submitKey(page, (await createKey()).key);
  await expect(page).toHaveURL("/");
  await expect(page.getByRole("heading", { level: 1, name: "Waitlists" })).toBeVisible();
  const cookies = await context.cookies();
  expect(cookies.map((cookie) => cookie.name)).toEqual([SECURE_SESSION_COOKIE]);
  expect(cookies[0]).toMatchObject({ secure: true, path: "/", httpOnly: true, sameSite: "Lax", domain: "127.0.0.1" });

  // Sign-out drops it.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL("/signin?signed_out=1");
  expect(await context.cookies()).toEqual([]);
});

test("the CSV export needs a session too", async ({ page }) => {
  const { waitlist } = await createFixtureWaitlist(2);
  const response = await page.request.get(`/waitlists/${waitlist.id}/export`, { maxRedirects: 0 });
  expect(response.status()).toBe(307);
  expect(response.headers().location).toContain("/signin?next=");
});

test("a stale session cookie is refused by the page itself", async ({ page, context }) => {
  await context.addCookies([{ name: SESSION_COOKIE, value: "not-a-session", url: baseURL }]);
  await page.goto("/?sort=total");
  await expect(page).toHaveURL(`/signin?next=${encodeURIComponent("/?sort=total")}`);
});

test("a key without waitlist:view is refused with a clear message", async ({ page }) => {
  await page.goto("/signin");
  await submitKey(page, (await createKey([])).key);
  await expect(signInError(page)).toHaveText("This API key does not carry the waitlist:view role, which the dashboard needs.");
  await expect(page).toHaveURL("/signin");
});

test("a revoked or expired key is refused; an unknown key is just not valid", async ({ page }) => {
  const revoked = await createKey();
  await revokeApiKey(revoked.id);
  await page.goto("/signin");
  await submitKey(page, revoked.key);
  await expect(signInError(page)).toHaveText("This API key has been revoked. Ask the operator for a new key.");

  await submitKey(page, (await createKey(["waitlist:view"], { expiresAt: new Date(Date.now() - 60_000) })).key);
  await expect(signInError(page)).toHaveText("This API key has expired. Ask the operator for a new key.");

  await submitKey(page, `wl_${"x".repeat(43)}`);
  await expect(signInError(page)).toHaveText("That is not a valid API key. Check that you pasted the whole key.");
  await submitKey(page, "garbage");
  await expect(signInError(page)).toHaveText("That is not a valid API key. Check that you pasted the whole key.");
});

// Each resolves (dot segments removed, "\\" read as "/") to "//evil.example": another site.
const OFF_SITE_RETURN_PATHS = [
  "//evil.example/x",
  "/\\evil.example",
  "https://evil.example/",
  "/.//evil.example",
  "/..//evil.example",
  "/%2e//evil.example",
  "/a/..//evil.example",
  "/.\\/evil.example",
  "/\\\\evil.example",
  "/\t//evil.example",
  "/.\n//evil.example",
];

test("a signed-out user who signs in from an off-site return path stays on our origin", async ({ page }) => {
  for (const next of OFF_SITE_RETURN_PATHS) {
    await page.context().clearCookies();
    await page.goto(`/signin?next=${encodeURIComponent(next)}`);
    // The form never carries the off-site value.
    await expect(page.locator('input[type="hidden"][name="next"]'), next).toHaveValue("/");
    await submitKey(page, (await createKey()).key);
    await expect(page, next).toHaveURL(`${baseURL}/`);
    await expect(page.getByRole("heading", { level: 1, name: "Waitlists" })).toBeVisible();
  }
});

test("a signed-in user who follows an off-site return path stays on our origin", async ({ page, context }) => {
  await signIn(context);
  for (const next of OFF_SITE_RETURN_PATHS) {
    const response = await page.request.get(`/signin?next=${encodeURIComponent(next)}`, { maxRedirects: 0 });
    expect(response.status(), next).toBe(307);
    expect(response.headers().location, next).toBe("/");
    await page.goto(`/signin?next=${encodeURIComponent(next)}`);
    await expect(page, next).toHaveURL(`${baseURL}/`);
  }
});

test("encoded slashes and backslashes in the return path stay paths on our origin", async ({ page, context }) => {
  await signIn(context);
  for (const next of ["/%2F/evil.example", "/%5C/evil.example", "/%2f%2fevil.example"]) {
    const response = await page.request.get(`/signin?next=${encodeURIComponent(next)}`, { maxRedirects: 0 });
    expect(response.headers().location, next).toBe(next);
    expect(new URL(response.headers().location!, baseURL).origin, next).toBe(baseURL);
  }
});

test("sign-out ends the session on the server", async ({ page, context }) => {
  await signIn(context);
  await page.goto("/");
  const token = (await context.cookies()).find((cookie) => cookie.name === SESSION_COOKIE)!.value;
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL("/signin?signed_out=1");
  await expect(page.getByRole("status")).toHaveText("You have been signed out.");
  // The old token no longer works even if a copy of the cookie survived.
  await context.addCookies([{ name: SESSION_COOKIE, value: token, url: baseURL }]);
  await page.goto("/");
  await expect(page).toHaveURL("/signin");
});

const sessionEnded = (page: Page) => page.locator("#session-ended");

test("revoking the key ends its sessions at their next request, and sign-in says why", async ({ page, context }) => {
  const { waitlist } = await createFixtureWaitlist(2);
  const target = `/waitlists/${waitlist.id}?verified=true`;
  const key = await signIn(context);
  await page.goto(target);
  await expect(page.getByRole("heading", { level: 1, name: waitlist.name })).toBeVisible();
  await revokeApiKey(key.id);
  await page.reload();
  await expect(page).toHaveURL(`/signin?reason=revoked&next=${encodeURIComponent(target)}`);
  await expect(sessionEnded(page)).toHaveText("Your API key was revoked: sign in with another key.");
  await expect(sessionEnded(page)).toHaveAttribute("role", "alert");
  // Another key takes the user back to the page.
  await submitKey(page, (await createKey()).key);
  await expect(page).toHaveURL(target);
});

test("an expired session and an expired key are explained on the sign-in page", async ({ page, context }) => {
  const thirteenHoursAgo = new Date(Date.now() - 13 * 3_600_000);
  const expiredSession = (await createSession((await createKey()).id, undefined, thirteenHoursAgo)).token;
  await context.addCookies([{ name: SESSION_COOKIE, value: expiredSession, url: baseURL }]);
  await page.goto("/");
  await expect(page).toHaveURL("/signin?reason=session-expired");
  await expect(sessionEnded(page)).toHaveText("Your session expired: sign in again.");

  const expiredKey = await createKey(["waitlist:view"], { expiresAt: new Date(Date.now() - 60_000) });
  await context.addCookies([{ name: SESSION_COOKIE, value: (await createSession(expiredKey.id)).token, url: baseURL }]);
  await page.goto("/?sort=total");
  await expect(page).toHaveURL(`/signin?reason=key-expired&next=${encodeURIComponent("/?sort=total")}`);
  await expect(sessionEnded(page)).toHaveText("Your API key expired: sign in with another key.");
});

test("the sign-in page shows only the reasons it knows", async ({ page }) => {
  await page.goto(`/signin?reason=${encodeURIComponent("Your key was stolen: call 555-0100")}`);
  await expect(page.getByRole("heading", { name: "Sign in to Waitlist Admin" })).toBeVisible();
  await expect(sessionEnded(page)).toHaveCount(0);
  await expect(page.getByText("555-0100")).toHaveCount(0);
});

test("sign-in attempts are limited per client address", async ({ page, context }) => {
  await context.setExtraHTTPHeaders({ "x-forwarded-for": "203.0.113.250" });
  await page.goto("/signin");
  for (let attempt = 0; attempt < 10; attempt++) {
    await submitKey(page, `wl_${String(attempt).padStart(43, "0")}`);
    await expect(signInError(page)).toContainText("not a valid API key");
  }
  // Even a good key is refused while the address is blocked…
  await submitKey(page, (await createKey()).key);
  await expect(signInError(page)).toHaveText(/^Too many failed sign-in attempts from your address\. Try again in 10 minutes\.$/);
  // …but another address is not affected.
  await context.setExtraHTTPHeaders({ "x-forwarded-for": "203.0.113.251" });
  await submitKey(page, (await createKey()).key);
  await expect(page).toHaveURL("/");
});

test("the API, its docs and the sign-in page need no session", async ({ page }) => {
  for (const path of ["/v1/waitlist", "/docs/api", "/signin"]) {
    const response = await page.request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).not.toBe(307);
  }
});
