import { expect, test, type Page } from "@playwright/test";
import { listAudit } from "@/lib/domain/audit/log";
import { signupEvents } from "@/lib/domain/events";
import { countSignups } from "@/lib/domain/signups/counts";
import { listSignupRows } from "@/lib/domain/signups/queries";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import type { SignupStatus } from "@/lib/domain/signups/status";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { rawSql } from "../support/raw-sql";
import { baseURL, forbidDialogs, insertSignups, signIn, unique } from "../support/support";

// Acting on a segment from the dashboard: rows selected on a page, every signup matching the filters
// across pages, "invite the next N", and a signup's own page with its history; each through a
// confirmation page that shows the count, the filter in words and the first addresses. A view
// session sees none of it and is refused on a forged POST.

const START = Date.UTC(2026, 2, 1);

/** `count` waiting signups, one an hour from START (oldest first); every other one verified. */
async function fixture(count = 60) {
  const waitlist = await createWaitlist({ name: unique("Status list"), website: "https://status.example" });
  const tag = waitlist.id.slice(0, 6);
  const signups = Array.from({ length: count }, (_, index) => ({
    email: `s.${String(index).padStart(3, "0")}.${tag}@example.com`,
    verified: index % 2 === 0,
    referral: false,
    customInputs: [{ label: "Role", value: index % 3 === 0 ? "Engineer" : "Designer" }],
    createdAt: new Date(START + index * 3_600_000),
  }));
  await insertSignups(waitlist.id, signups);
  return { waitlist, emails: signups.map((signup) => signup.email) };
}

async function statusOf(waitlistId: string): Promise<Map<string, SignupStatus>> {
  const rows = await listSignupRows({ scope: { waitlistId }, sort: "created_at", direction: "asc", offset: 0, limit: 1000 });
  return new Map(rows.map((row) => [row.email, row.status]));
}

async function idOf(waitlistId: string, email: string): Promise<number> {
  return (await listSignupRows({ scope: { waitlistId, emailContains: email }, offset: 0, limit: 1 }))[0]!.id;
}

async function eventCount(waitlistId: string, type: string): Promise<number> {
  return Number(await rawSql.value("SELECT count(*) AS n FROM events WHERE waitlist_id = ? AND type = ?", waitlistId, type));
}

async function confirm(page: Page, button: string) {
  await page.getByRole("button", { name: button, exact: true }).click();
  await expect(page.getByTestId("done-notice")).toBeVisible();
}

test.describe("an admin", () => {
  let dialogs: string[];
  test.beforeEach(async ({ context, page }) => {
    await signIn(context, ["waitlist:admin"]);
    dialogs = forbidDialogs(page);
  });
  test.afterEach(() => expect(dialogs).toEqual([]));

  test("selects rows on the page and invites them", async ({ page }) => {
    const { waitlist, emails } = await fixture();
    const [newest, second] = [emails.at(-1)!, emails.at(-2)!];
    await page.goto(`/waitlists/${waitlist.id}`);
    await expect(page.getByTestId("selection-summary")).toHaveText("Select signups to act on them.");
    await expect(page.getByRole("button", { name: "Invite…" })).toBeDisabled();
    await page.getByLabel(`Select ${newest}`).check();
    await page.getByLabel(`Select ${second}`).check();
    await expect(page.getByTestId("selection-summary")).toHaveText("2 selected.");

    await page.getByRole("button", { name: "Invite…" }).click();
    await expect(page).toHaveURL(new RegExp(`/waitlists/${waitlist.id}/status/invite\\?`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Invite 2 signups?");
    await expect(page.getByTestId("action-count")).toHaveText("2");
    await expect(page.getByTestId("first-emails").locator("li")).toHaveText([second, newest]);
    expect((await statusOf(waitlist.id)).get(newest)).toBe("waiting");

    await confirm(page, "Invite 2 signups");
    await expect(page).toHaveURL(`/waitlists/${waitlist.id}?done=invited&changed=2`);
    await expect(page.getByTestId("done-notice")).toHaveText("Invited: 2 signups.");
    const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: newest }) });
    await expect(row.getByText("Invited", { exact: true })).toBeVisible();
    const statuses = await statusOf(waitlist.id);
    expect([...statuses.values()].filter((status) => status === "invited")).toHaveLength(2);
    expect([statuses.get(newest), statuses.get(second)]).toEqual(["invited", "invited"]);
    expect(await eventCount(waitlist.id, "signup.invited")).toBe(2);
    expect((await listAudit({ action: "signups.invite", limit: 1 }))[0]).toMatchObject({ target: waitlist.id, summary: "invited 2 signups of 2 selected signups (0 skipped)" });
  });

  test("selects all matching across pages and rejects them", async ({ page }) => {
    const { waitlist } = await fixture();
    const verified = (await countSignups({ waitlistId: waitlist.id, verified: true })).total;
    expect(verified).toBe(30);
    await page.goto(`/waitlists/${waitlist.id}?verified=true&size=25`);
    await page.getByLabel("Select every signup on this page").check();
    await expect(page.getByTestId("selection-summary")).toContainText("25 selected.");
    await page.getByRole("button", { name: "Select all 30 matching" }).click();
    await expect(page.getByTestId("selection-summary")).toContainText("All 30 matching signups are selected.");

    await page.getByRole("button", { name: "Reject…" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Reject 30 signups?");
    await expect(page.getByTestId("selection-filter")).toHaveText("Filter: Verified.");
    await expect(page.getByTestId("action-numbers")).toContainText("30 signups match the filter.");
    await expect(page.getByTestId("first-emails").locator("li")).toHaveCount(10);
    // Rejecting emails nobody, and so offers no test.
    await expect(page.getByTestId("emails-note")).toHaveText("This sends no email: of the status actions only an invitation is emailed to the signup.");
    await expect(page.getByRole("button", { name: "Send a test to me" })).toHaveCount(0);

    await confirm(page, "Reject 30 signups");
    await expect(page.getByTestId("done-notice")).toHaveText("Rejected: 30 signups.");
    await expect(page).toHaveURL(/verified=true/);
    expect((await countSignups({ waitlistId: waitlist.id, status: ["rejected"] })).total).toBe(30);
    expect((await countSignups({ waitlistId: waitlist.id, verified: true, status: ["waiting"] })).total).toBe(0);
    expect((await countSignups({ waitlistId: waitlist.id, verified: false, status: ["waiting"] })).total).toBe(30);
    expect(await eventCount(waitlist.id, "signup.rejected")).toBe(30);
    expect((await listAudit({ action: "signups.reject", limit: 1 }))[0]!.summary).toBe("rejected 30 signups: every waiting signup of Verified");
  });

  test("invites the next 50: the oldest waiting under the filters", async ({ page }) => {
    const { waitlist, emails } = await fixture();
    await applyStatusAction("cli", { action: "invite", selection: { waitlistId: waitlist.id, emails: [emails[0]!] } });
    await page.goto(`/waitlists/${waitlist.id}`);
    await page.getByRole("spinbutton", { name: /Invite the next/ }).fill("50");
    await page.getByRole("button", { name: "Invite next…" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Invite 50 signups?");
    await expect(page.getByTestId("selection-filter")).toHaveText("No filter: the whole list.");
    await expect(page.getByTestId("action-numbers")).toContainText("Left as they are: 9 waiting, 1 invited.");
    await expect(page.getByTestId("first-emails").locator("li")).toHaveText(emails.slice(1, 11));

    await confirm(page, "Invite 50 signups");
    await expect(page.getByTestId("done-notice")).toHaveText("Invited: 50 signups.");
    const statuses = await statusOf(waitlist.id);
    expect(emails.map((email) => statuses.get(email))).toEqual([...Array(51).fill("invited"), ...Array(9).fill("waiting")]);
  });

  test("withdraws an invitation and restores a rejection from a signup's page, which shows its history", async ({ page }) => {
    const { waitlist, emails } = await fixture(4);
    const [invited, rejected] = [emails[0]!, emails[1]!];
    await applyStatusAction("cli", { action: "invite", selection: { waitlistId: waitlist.id, emails: [invited] } });
    await applyStatusAction("cli", { action: "reject", selection: { waitlistId: waitlist.id, emails: [rejected] } });
    const invitedId = await idOf(waitlist.id, invited);

    await page.goto(`/waitlists/${waitlist.id}/signups/${invitedId}`);
    await expect(page.getByTestId("signup-status")).toContainText("Invited");
    await expect(page.getByTestId("status-history").locator("li")).toHaveCount(2);
    await expect(page.getByTestId("status-history").locator("li").nth(1)).toContainText("Invited");
    await expect(page.getByTestId("status-actions").getByRole("link")).toHaveText(["Withdraw invitation…", "Mark completed…"]);
    await page.getByRole("link", { name: "Withdraw invitation…" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Withdraw the invitation of ${invited}?`);
    await confirm(page, "Withdraw the invitation of this signup");
    await expect(page).toHaveURL(`/waitlists/${waitlist.id}/signups/${invitedId}?done=withdrawn&changed=1`);
    await expect(page.getByTestId("done-notice")).toHaveText("Invitation withdrawn: 1 signup.");
    await expect(page.getByTestId("status-history").locator("li").nth(2)).toContainText("Invitation withdrawn");
    await expect(page.getByTestId("status-actions").getByRole("link")).toHaveText(["Invite…", "Reject…"]);
    expect((await signupEvents(invitedId)).map((event) => event.type)).toEqual(["signup.invited", "signup.invitation_withdrawn"]);

    await page.goto(`/waitlists/${waitlist.id}/signups/${await idOf(waitlist.id, rejected)}`);
    await expect(page.getByTestId("status-actions").getByRole("link")).toHaveText(["Restore…"]);
    await page.getByRole("link", { name: "Restore…" }).click();
    await expect(page.getByTestId("emails-note")).toHaveText("This sends no email: of the status actions only an invitation is emailed to the signup.");
    await confirm(page, "Restore this signup");
    await expect(page.getByTestId("status-history").locator("li")).toHaveText([/Signed up/, /Rejected/, /Restored/]);
    expect((await statusOf(waitlist.id)).get(rejected)).toBe("waiting");
  });

  test("is told what is wrong with a bad selection, and nothing changes", async ({ page }) => {
    const { waitlist, emails } = await fixture(3);
    await page.goto(`/waitlists/${waitlist.id}/status/invite?ids=12x`);
    await expect(page.getByTestId("selection-error")).toHaveText('"12x" is not a signup id.');
    await page.goto(`/waitlists/${waitlist.id}/status/invite?verified=maybe`);
    await expect(page.getByTestId("selection-error")).toContainText('"verified"');
    // Every signup is already invited: the page says so and offers no button.
    await applyStatusAction("cli", { action: "invite", selection: { scope: { waitlistId: waitlist.id }, limit: -1 } });
    await page.goto(`/waitlists/${waitlist.id}/status/invite?limit=5`);
    await expect(page.getByTestId("nothing-to-do")).toHaveText("Only a waiting signup can become invited: nothing would change.");
    await expect(page.getByRole("button", { name: /Invite/ })).toHaveCount(0);

    const post = (form: Record<string, string>) => page.request.post(`/waitlists/${waitlist.id}/status/withdraw/confirm`, { form, headers: { origin: baseURL }, maxRedirects: 0 });
    const unknown = await post({ ids: "1", verified: "true" });
    expect(unknown.status()).toBe(400);
    expect(await unknown.text()).toContain("cannot be combined with selected rows");
    const bad = await post({ limit: "0" });
    expect(bad.status()).toBe(400);
    expect(await bad.text()).toContain("Nothing was changed.");
    const crossSite = await page.request.post(`/waitlists/${waitlist.id}/status/withdraw/confirm`, { form: { limit: "1" }, headers: { origin: "http://evil.example" }, maxRedirects: 0 });
    expect(crossSite.status()).toBe(403);
    const valid = await post({ limit: "1" });
    expect(valid.status()).toBe(303);
    const statuses = await statusOf(waitlist.id);
    // Only the one valid POST (limit=1) withdrew one invitation: the oldest.
    expect(emails.map((email) => statuses.get(email))).toEqual(["waiting", "invited", "invited"]);
  });
});

test("a view session sees no checkboxes or actions, and a forged POST with its session gets 403", async ({ page, context }) => {
  const { waitlist, emails } = await fixture(5);
  await signIn(context);
  await page.goto(`/waitlists/${waitlist.id}`);
  await expect(page.getByRole("link", { name: emails[0] })).toBeVisible();
  // The export's "Answers in columns" is a viewer's option too; selection lives in the table.
  await expect(page.getByRole("table").getByRole("checkbox")).toHaveCount(0);
  await expect(page.getByRole("checkbox", { name: "Answers in columns" })).toBeVisible();
  await expect(page.getByRole("button", { name: /Invite|Reject|Withdraw|Restore|Mark completed/ })).toHaveCount(0);
  const id = await idOf(waitlist.id, emails[0]!);
  await page.goto(`/waitlists/${waitlist.id}/signups/${id}`);
  await expect(page.getByTestId("status-history")).toBeVisible();
  await expect(page.getByTestId("status-actions")).toHaveCount(0);
  expect((await page.goto(`/waitlists/${waitlist.id}/status/invite?ids=${id}`))!.status()).toBe(404);

  const forged = await page.request.post(`/waitlists/${waitlist.id}/status/invite/confirm`, { form: { ids: String(id) }, headers: { origin: baseURL }, maxRedirects: 0 });
  expect(forged.status()).toBe(403);
  expect(await forged.text()).toContain("does not carry the waitlist:admin role");
  expect([...(await statusOf(waitlist.id)).values()]).toEqual(Array(5).fill("waiting"));
  expect(await eventCount(waitlist.id, "signup.invited")).toBe(0);
});
