import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { getDb } from "@/db/client";
import { listAudit } from "@/lib/domain/audit/log";
import { waitlistsNamed } from "@/lib/domain/waitlists/manage";
import { findSignupsByEmail } from "@/lib/domain/signups/find";
import { createWaitlist, getWaitlist } from "@/lib/domain/waitlists/queries";
import { baseURL, forbidDialogs, insertSignups, signIn, unique } from "../support/support";

// Waitlists managed from the dashboard by an admin key: create (with a warning step for a name in
// use), edit, delete (typing the name). A view key sees none of it and its forged POSTs get 403.

function signup(email: string) {
  return { email, verified: true, referral: false, customInputs: [{ label: "plan", value: "pro" }], createdAt: new Date("2026-05-06T07:08:09.000Z") };
}

async function createFromOverview(page: Page, name: string, website: string) {
  await page.goto("/");
  await page.getByText("New waitlist").click();
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Website", { exact: true }).fill(website);
  await page.getByRole("button", { name: "Create waitlist" }).click();
}

test.describe("an admin", () => {
  let dialogs: string[];
  let keyName: string;
  test.beforeEach(async ({ context, page }) => {
    keyName = (await signIn(context, ["waitlist:admin"])).name;
    dialogs = forbidDialogs(page);
  });
  test.afterEach(() => expect(dialogs).toEqual([]));

  test("creates a waitlist, and confirms a second one with a name in use on a warning page", async ({ page }) => {
    const name = unique("Created here");
    await createFromOverview(page, name, "https://created.example");
    await expect(page).toHaveURL(/\/waitlists\/[0-9a-f-]{36}\?done=created$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
    await expect(page.getByTestId("done-notice")).toHaveText("The waitlist was created.");
    const [created] = await waitlistsNamed(name);
    expect(created).toMatchObject({ name, website: "https://created.example/" });
    expect((await listAudit({ action: "waitlist.create", limit: 5 }))[0]).toMatchObject({ target: created!.id, actor: keyName });

    await createFromOverview(page, name.toUpperCase(), "https://second.example");
    await expect(page).toHaveURL(/\/waitlists\/new\?/);
    await expect(page.getByTestId("duplicate-warning")).toContainText(`A waitlist named “${name.toUpperCase()}” already exists`);
    await expect(page.getByTestId("duplicate-warning").getByRole("link", { name })).toHaveAttribute("href", `/waitlists/${created!.id}`);
    expect(await waitlistsNamed(name)).toHaveLength(1);
    await page.getByLabel("Create it although another waitlist has this name").check();
    await page.getByRole("button", { name: "Create waitlist" }).click();
    await expect(page.getByTestId("done-notice")).toHaveText("The waitlist was created.");
    expect((await waitlistsNamed(name)).map((waitlist) => waitlist.name)).toEqual([name, name.toUpperCase()]);
  });

  test("renames a waitlist and changes its website", async ({ page }) => {
    const waitlist = await createWaitlist({ name: unique("Before"), website: "https://before.example" });
    const taken = await createWaitlist({ name: unique("Taken"), website: "https://taken.example" });
    await page.goto(`/waitlists/${waitlist.id}`);
    await page.getByRole("link", { name: "Edit", exact: true }).click();
    const renamed = unique("After");
    await page.getByLabel("Name", { exact: true }).fill(renamed);
    await page.getByLabel("Website", { exact: true }).fill("https://after.example/x");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page).toHaveURL(`/waitlists/${waitlist.id}?done=updated`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(renamed);
    await expect(page.getByTestId("done-notice")).toHaveText("The waitlist was saved.");
    expect(await getWaitlist(waitlist.id)).toMatchObject({ name: renamed, website: "https://after.example/x" });

    // Another waitlist's name: the form comes back with a warning, and saves once confirmed.
    await page.goto(`/waitlists/${waitlist.id}/edit`);
    await page.getByLabel("Name", { exact: true }).fill(taken.name);
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByTestId("duplicate-warning")).toContainText(`Another waitlist is already named “${taken.name}”`);
    expect((await getWaitlist(waitlist.id))!.name).toBe(renamed);
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue(taken.name);
    await page.getByLabel("Use this name although another waitlist has it").check();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page).toHaveURL(`/waitlists/${waitlist.id}?done=updated`);
    expect((await getWaitlist(waitlist.id))!.name).toBe(taken.name);
  });

  test("deletes a waitlist and its signups after typing its name", async ({ page }) => {
    const waitlist = await createWaitlist({ name: unique("Doomed"), website: "https://doomed.example" });
    await insertSignups(waitlist.id, ["a", "b", "c"].map((letter) => signup(`${letter}.${waitlist.id.slice(0, 8)}@doomed.example`)));
    await page.goto(`/waitlists/${waitlist.id}`);
    await page.getByRole("link", { name: "Delete…" }).click();
    await expect(page).toHaveURL(`/waitlists/${waitlist.id}/delete`);
    await expect(page.getByTestId("what-goes")).toContainText(waitlist.name);
    await expect(page.getByTestId("what-goes")).toContainText("its 3 signups");

    await page.getByLabel(/Type the waitlist's name/).fill(waitlist.name.toLowerCase());
    await page.getByRole("button", { name: "Delete this waitlist and its signups" }).click();
    await expect(page.getByTestId("confirm-mismatch")).toHaveText("The name you typed is not the waitlist's name: nothing was deleted.");
    expect(await getWaitlist(waitlist.id)).toBeDefined();

    await page.getByLabel(/Type the waitlist's name/).fill(waitlist.name);
    await page.getByRole("button", { name: "Delete this waitlist and its signups" }).click();
    await expect(page).toHaveURL("/?done=deleted");
    await expect(page.getByTestId("done-notice")).toHaveText("The waitlist and its signups were deleted.");
    await expect(page.getByRole("link", { name: waitlist.name })).toHaveCount(0);
    expect(await getWaitlist(waitlist.id)).toBeUndefined();
    expect(getDb().$client.prepare("SELECT count(*) AS n FROM signups WHERE waitlist_id = ?").get(waitlist.id)).toEqual({ n: 0 });
    expect((await page.goto(`/waitlists/${waitlist.id}`))?.status()).toBe(404);
  });
});

test("the admin pages and forms have no serious accessibility violation", async ({ context, page }) => {
  await signIn(context, ["waitlist:admin"]);
  const waitlist = await createWaitlist({ name: unique("Accessible"), website: "https://accessible.example" });
  const email = `${waitlist.id.slice(0, 8)}@accessible.example`;
  await insertSignups(waitlist.id, [signup(email)]);
  await insertSignups((await createWaitlist({ name: unique("Accessible too"), website: "https://accessible.example" })).id, [signup(email)]);
  const signupId = (await findSignupsByEmail({ email, limit: 1 }))[0]!.signupId;
  const paths = [
    "/",
    `/waitlists/new?name=${encodeURIComponent(waitlist.name)}&website=https://a.example`,
    `/waitlists/${waitlist.id}`,
    `/waitlists/${waitlist.id}/edit?warn=duplicate-name&name=x&website=https://a.example`,
    `/waitlists/${waitlist.id}/delete?error=name`,
    `/waitlists/${waitlist.id}/signups/${signupId}/erase`,
    `/find/erase?email=${encodeURIComponent(email)}`,
    "/find/erase?email=nobody%40accessible.example",
  ];
  for (const path of paths) {
    await page.goto(path);
    if (path === "/") await page.getByText("New waitlist").click();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical").map((violation) => violation.id), path).toEqual([]);
  }
});

test.describe("a view key", () => {
  test("sees no waitlist control, cannot open the forms, and its forged POSTs get 403", async ({ context, page }) => {
    await signIn(context, ["waitlist:view"]);
    const waitlist = await createWaitlist({ name: unique("Viewed"), website: "https://viewed.example" });
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Waitlists" })).toBeVisible();
    await expect(page.getByText("New waitlist")).toHaveCount(0);
    await page.goto(`/waitlists/${waitlist.id}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(waitlist.name);
    await expect(page.getByRole("link", { name: "Edit", exact: true })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Delete…" })).toHaveCount(0);
    for (const path of [`/waitlists/${waitlist.id}/edit`, `/waitlists/${waitlist.id}/delete`, "/waitlists/new?name=x&website=https://x.example"]) {
      const response = await page.goto(path);
      expect([403, 404], path).toContain(response?.status());
    }

    const posts: [string, Record<string, string>][] = [
      ["/waitlists/create", { name: unique("Forged"), website: "https://forged.example" }],
      [`/waitlists/${waitlist.id}/update`, { name: "Forged rename", website: "https://forged.example" }],
      [`/waitlists/${waitlist.id}/delete/confirm`, { confirm: waitlist.name }],
    ];
    for (const [path, form] of posts) {
      const response = await page.request.post(path, { form, headers: { Origin: baseURL }, maxRedirects: 0 });
      expect(response.status(), path).toBe(403);
    }
    expect(await getWaitlist(waitlist.id)).toMatchObject({ name: waitlist.name });
    expect(await waitlistsNamed(posts[0]![1].name!)).toEqual([]);
  });
});

test("a cross-origin POST with an admin session is refused and changes nothing", async ({ context, page }) => {
  await signIn(context, ["waitlist:admin"]);
  const waitlist = await createWaitlist({ name: unique("Targeted"), website: "https://targeted.example" });
  const posts: [string, Record<string, string>][] = [
    ["/waitlists/create", { name: unique("Cross-site"), website: "https://evil.example" }],
    [`/waitlists/${waitlist.id}/update`, { name: "Pwned", website: "https://evil.example" }],
    [`/waitlists/${waitlist.id}/delete/confirm`, { confirm: waitlist.name }],
  ];
  for (const [path, form] of posts) {
    const response = await page.request.post(path, { form, headers: { Origin: "http://evil.example" }, maxRedirects: 0 });
    expect(response.status(), path).toBe(403);
  }
  expect(await getWaitlist(waitlist.id)).toMatchObject({ name: waitlist.name, website: "https://targeted.example/" });
  expect(await waitlistsNamed(posts[0]![1].name!)).toEqual([]);
});
