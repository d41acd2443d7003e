import { expect, test } from "@playwright/test";
import { createApiKey } from "@/lib/domain/keys/queries";
import { auditHash, listAudit } from "@/lib/domain/audit/log";
import { findSignupsByEmail } from "@/lib/domain/signups/find";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { baseURL, forbidDialogs, insertSignups, signIn, unique } from "../support/support";

// Erasure from the dashboard: one signup from its page, an address from every waitlist from the
// finder, each through a confirmation page; then the address is gone from every view, /v1 and the
// CSV export, and the audit log holds only a hash of it.

async function fixture() {
  const stamp = `e${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`;
  const person = `Erin.${stamp}@acme.example`;
  const first = await createWaitlist({ name: unique("Erase A"), website: "https://a.example" });
  const second = await createWaitlist({ name: unique("Erase B"), website: "https://b.example" });
  const at = new Date("2026-04-05T06:07:08.009Z");
  const signup = (email: string, company: string) => ({ email, verified: true, referral: false, customInputs: [{ label: "company", value: company }], createdAt: at });
  await insertSignups(first.id, [signup(person, `Erasedco ${stamp}`), signup(`kept.${stamp}@acme.example`, "Keptco")]);
  await insertSignups(second.id, [signup(person.toLowerCase(), `Erasedco ${stamp}`)]);
  const idIn = async (waitlistId: string) => (await findSignupsByEmail({ email: person, limit: 10 })).find((found) => found.waitlistId === waitlistId)!.signupId;
  return { stamp, person, first, second, idIn };
}

async function apiSignups(waitlistId: string): Promise<string> {
  const key = await createApiKey({ name: unique("e2e api"), roles: ["waitlist:view"] });
  const response = await fetch(`${baseURL}/v1/waitlist/${waitlistId}/signup`, { headers: { Authorization: `Bearer ${key.key}` } });
  expect(response.status).toBe(200);
  return (await response.text()).toLowerCase();
}

test.describe("an admin", () => {
  let dialogs: string[];
  test.beforeEach(async ({ context, page }) => {
    await signIn(context, ["waitlist:admin"]);
    dialogs = forbidDialogs(page);
  });
  test.afterEach(() => expect(dialogs).toEqual([]));

  test("erases one signup from its page, after a confirmation that says what goes", async ({ page }) => {
    const { person, first, second, idIn } = await fixture();
    const id = await idIn(first.id);
    await page.goto(`/waitlists/${first.id}/signups/${id}`);
    await page.getByRole("link", { name: "Erase this signup…" }).click();
    await expect(page).toHaveURL(`/waitlists/${first.id}/signups/${id}/erase`);
    await expect(page.getByTestId("what-goes")).toContainText(person);
    await expect(page.getByTestId("what-goes")).toContainText("1 custom input");
    await expect(page.getByTestId("elsewhere")).toContainText(second.name);
    expect(await findSignupsByEmail({ email: person, limit: 10 })).toHaveLength(2);

    await page.getByRole("button", { name: "Erase this signup" }).click();
    await expect(page).toHaveURL(`/waitlists/${first.id}?done=erased`);
    await expect(page.getByTestId("done-notice")).toHaveText("The signup was erased.");
    await expect(page.getByRole("link", { name: person })).toHaveCount(0);
    expect((await findSignupsByEmail({ email: person, limit: 10 })).map((found) => found.waitlistId)).toEqual([second.id]);
    expect((await page.goto(`/waitlists/${first.id}/signups/${id}`))?.status()).toBe(404);
    expect((await listAudit({ action: "signup.erase", limit: 1 }))[0]).toMatchObject({ target: await auditHash(person), summary: "erased 1 signup from 1 waitlist" });
  });

  test("erases an address from every waitlist from the finder; it is gone from every view, /v1 and the CSV", async ({ page }) => {
    const { stamp, person, first, second } = await fixture();
    await page.goto(`/find?email=${encodeURIComponent(person.toUpperCase())}`);
    await expect(page.getByTestId("found-exact").locator("tbody tr")).toHaveCount(2);
    await page.getByRole("link", { name: "Erase this address from every waitlist…" }).click();
    const goes = page.getByTestId("what-goes");
    await expect(goes.locator("tbody tr")).toHaveCount(2);
    await expect(goes.getByRole("link", { name: first.name })).toBeVisible();
    await expect(goes.getByRole("link", { name: second.name })).toBeVisible();

    // Erasing from several waitlists asks for the address typed again, like deleting a waitlist asks for its name.
    await page.getByLabel("Type the address to confirm").fill("someone.else@example.com");
    await page.getByRole("button", { name: "Erase 2 signups" }).click();
    await expect(page.getByTestId("confirm-mismatch")).toHaveText("The address you typed is not this address: nothing was erased.");
    expect(await findSignupsByEmail({ email: person, limit: 10 })).toHaveLength(2);
    await page.getByLabel("Type the address to confirm").fill(` ${person.toUpperCase()} `);
    await page.getByRole("button", { name: "Erase 2 signups" }).click();
    await expect(page).toHaveURL("/find?done=erased");
    await expect(page.getByTestId("done-notice")).toHaveText("The address was erased from every waitlist.");

    // The finder, the table's search and count, the facets, the CSV export and /v1.
    await page.goto(`/find?email=${encodeURIComponent(person)}`);
    await expect(page.getByTestId("found-exact")).toContainText("No waitlist holds the address");
    await page.goto(`/waitlists/${first.id}?email_contains=${stamp}`);
    await expect(page.getByRole("link", { name: `kept.${stamp}@acme.example` })).toBeVisible();
    await expect(page.getByRole("link", { name: person })).toHaveCount(0);
    await page.goto(`/waitlists/${first.id}`);
    await expect(page.getByText(`Erasedco ${stamp}`)).toHaveCount(0);
    await expect(page.getByText("Keptco").first()).toBeVisible();
    const csv = (await (await page.request.get(`/waitlists/${first.id}/export`)).text()).toLowerCase();
    expect(csv).toContain(`kept.${stamp}@acme.example`);
    expect(csv).not.toContain(person.toLowerCase());
    for (const waitlist of [first, second]) expect(await apiSignups(waitlist.id)).not.toContain(person.toLowerCase());

    const [row] = await listAudit({ action: "signup.erase", limit: 1 });
    expect(row).toMatchObject({ target: await auditHash(person), summary: "erased 2 signups from 2 waitlists" });
    expect(JSON.stringify(row).toLowerCase()).not.toContain(stamp);
  });
});

test("a view key sees no erase control, and its forged erasures get 403", async ({ context, page }) => {
  await signIn(context, ["waitlist:view"]);
  const { person, first, idIn } = await fixture();
  const id = await idIn(first.id);
  await page.goto(`/waitlists/${first.id}/signups/${id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(person);
  await expect(page.getByRole("link", { name: "Erase this signup…" })).toHaveCount(0);
  await page.goto(`/find?email=${encodeURIComponent(person)}`);
  await expect(page.getByTestId("found-exact").locator("tbody tr")).toHaveCount(2);
  await expect(page.getByRole("link", { name: first.name })).toBeVisible();
  await expect(page.getByRole("link", { name: "Erase this address from every waitlist…" })).toHaveCount(0);
  for (const path of [`/waitlists/${first.id}/signups/${id}/erase`, `/find/erase?email=${encodeURIComponent(person)}`]) {
    expect([403, 404], path).toContain((await page.goto(path))?.status());
  }
  for (const [path, form] of [
    [`/waitlists/${first.id}/signups/${id}/erase/confirm`, {}],
    ["/find/erase/confirm", { email: person, confirm: person }],
  ] as const) {
    expect((await page.request.post(path, { form, headers: { Origin: baseURL }, maxRedirects: 0 })).status(), path).toBe(403);
  }
  expect(await findSignupsByEmail({ email: person, limit: 10 })).toHaveLength(2);
});

test("a cross-origin erasure with an admin session is refused", async ({ context, page }) => {
  await signIn(context, ["waitlist:admin"]);
  const { person, first, idIn } = await fixture();
  for (const [path, form] of [
    [`/waitlists/${first.id}/signups/${await idIn(first.id)}/erase/confirm`, {}],
    ["/find/erase/confirm", { email: person, confirm: person }],
  ] as const) {
    expect((await page.request.post(path, { form, headers: { Origin: "http://evil.example" }, maxRedirects: 0 })).status(), path).toBe(403);
  }
  expect(await findSignupsByEmail({ email: person, limit: 10 })).toHaveLength(2);
});
