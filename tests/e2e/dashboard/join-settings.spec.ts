import { expect, test } from "@playwright/test";
import { listAudit } from "@/lib/domain/audit/log";
import { joinWaitlist } from "@/lib/domain/joining/join";
import { joinSettingsOf, updateJoinSettings } from "@/lib/domain/joining/settings";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { openWaitlist } from "../support/join-fixtures";
import { baseURL, signIn, unique } from "../support/support";

// The dashboard's "Joining" page (admins): saves the join settings through a plain form (audited),
// shows the embed snippet, refuses a forged cross-site POST and a view key; the signup page shows
// the referrer, whether that referral counts (or why not) and the referral count, the waitlist page
// its top referrers and the referrals that do not count, by reason.

test("an admin opens joining, adds fields, turns verification on and names an embed origin; the public form follows", async ({ page, context }) => {
  const admin = await signIn(context, ["waitlist:admin"]);
  const waitlist = await createWaitlist({ name: unique("Settings list"), website: "https://settings.example" });
  await page.goto(`/waitlists/${waitlist.id}`);
  await page.getByRole("link", { name: "Joining", exact: true }).click();
  await expect(page).toHaveURL(`/waitlists/${waitlist.id}/join`);
  // The defaults: closed, the challenge on.
  await expect(page.getByLabel("Closed: the page and the API refuse new signups")).toBeChecked();
  await expect(page.getByLabel(/Anti-spam challenge/)).toBeChecked();

  await page.getByLabel("Open: anyone with the link can join").check();
  await page.getByLabel(/Email verification/).check();
  await page.getByLabel(/Anti-spam challenge/).uncheck();
  await page.getByLabel("Label of field 1").fill("Company");
  await page.getByLabel("Field 1 is required").check();
  await page.getByLabel("Label of field 2").fill("Plan");
  await page.getByLabel("Type of field 2").selectOption("choice");
  await page.getByLabel("Options of field 2 (for a choice, comma-separated)").fill("Free, Pro");
  await page.getByLabel("Success message").fill("See you soon.");
  await page.getByLabel(/Embed origins/).fill("https://partner.example\n");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("done-notice")).toHaveText("Join settings saved.");
  expect(await joinSettingsOf(waitlist.id)).toEqual({
    joining: "open",
    verification: true,
    challenge: false,
    fields: [
      { label: "Company", type: "text", required: true },
      { label: "Plan", type: "choice", options: ["Free", "Pro"], required: false },
    ],
    successMessage: "See you soon.",
    embedOrigins: ["https://partner.example"],
    headline: "",
    description: "",
    accentColor: "",
    leaderboard: false,
    disposable: "flag",
  });
  expect((await listAudit({ action: "waitlist.join_settings", actor: admin.id, limit: 1 }))[0]).toMatchObject({ target: waitlist.id });
  await expect(page.getByLabel("Label of field 1")).toHaveValue("Company");
  await expect(page.getByTestId("smtp-unset")).toContainText("Email is not configured");
  await expect(page.getByTestId("embed-snippet")).toHaveText(
    `<iframe src="${baseURL}/join/${waitlist.id}" title="Join the ${waitlist.name} waitlist" style="width: 100%; max-width: 480px; height: 580px; border: 0" loading="lazy"></iframe>`,
  );
  await expect(page.getByRole("button", { name: "Copy the embed snippet" })).toBeVisible();

  await page.goto(`/join/${waitlist.id}`);
  await expect(page.getByLabel("Company")).toHaveAttribute("required", "");
  await expect(page.getByLabel("Plan (optional)")).toBeVisible();
  await expect(page.locator("altcha-widget")).toHaveCount(0);

  // An origin with a path: a 400 that names it, nothing changed.
  const refused = await page.request.post(`/waitlists/${waitlist.id}/join/save`, { form: { joining: "closed", embed_origins: "https://partner.example/page" }, headers: { origin: baseURL }, maxRedirects: 0 });
  expect(refused.status()).toBe(400);
  expect(await refused.text()).toContain("must be an origin such as https://example.com");
  expect((await joinSettingsOf(waitlist.id)).joining).toBe("open");
});

test("a forged cross-site POST and a view key are refused; nothing changes", async ({ page, context, browser }) => {
  await signIn(context, ["waitlist:admin"]);
  const waitlist = await openWaitlist();
  const forged = await page.request.post(`/waitlists/${waitlist.id}/join/save`, { form: { joining: "closed" }, headers: { origin: "https://evil.example" }, maxRedirects: 0 });
  expect(forged.status()).toBe(403);
  expect(await forged.text()).toContain("Refused: the request comes from https://evil.example");
  const noOrigin = await page.request.post(`/waitlists/${waitlist.id}/join/save`, { form: { joining: "closed" }, headers: { "sec-fetch-site": "cross-site" }, maxRedirects: 0 });
  expect(noOrigin.status()).toBe(403);
  expect((await joinSettingsOf(waitlist.id)).joining).toBe("open");

  const viewer = await browser.newContext({ baseURL });
  await signIn(viewer, ["waitlist:view"]);
  const viewPage = await viewer.newPage();
  expect((await viewPage.goto(`/waitlists/${waitlist.id}/join`))!.status()).toBe(404);
  const denied = await viewPage.request.post(`/waitlists/${waitlist.id}/join/save`, { form: { joining: "closed" }, headers: { origin: baseURL }, maxRedirects: 0 });
  expect(denied.status()).toBe(403);
  expect((await joinSettingsOf(waitlist.id)).joining).toBe("open");
  await viewer.close();
});

test("the signup page shows the referrer, the referral count and the place; the waitlist page its top referrers", async ({ page, context }) => {
  await signIn(context, ["waitlist:view"]);
  const waitlist = await openWaitlist();
  const tag = unique("r").replace(/\W/g, "");
  const join = async (email: string, referralCode?: string) => (await joinWaitlist({ waitlistId: waitlist.id, email, customInputs: [], referralCode })).signup;
  const owner = await join(`owner.${tag}@example.com`);
  const other = await join(`other.${tag}@example.com`);
  const friend = await join(`friend.${tag}@example.com`, owner.referral_code);
  await join(`second.${tag}@example.com`, owner.referral_code);
  await join(`third.${tag}@example.com`, other.referral_code);

  await page.goto(`/waitlists/${waitlist.id}/signups/${friend.id}`);
  await expect(page.getByTestId("signup-referrer")).toHaveText(owner.email);
  await expect(page.getByTestId("signup-referrals")).toHaveText("0");
  await expect(page.getByTestId("signup-position")).toHaveText("3");
  await page.getByTestId("signup-referrer").getByRole("link").click();
  await expect(page).toHaveURL(`/waitlists/${waitlist.id}/signups/${owner.id}`);
  await expect(page.getByTestId("signup-referrer")).toHaveText("No one");
  await expect(page.getByTestId("signup-referrals")).toHaveText("2");

  await page.goto(`/waitlists/${waitlist.id}`);
  await expect(page.getByTestId("top-referrers").getByRole("listitem")).toHaveText([`owner.${tag}@example.com2 referrals`, `other.${tag}@example.com1 referral`]);
});

test("referrals that do not count say why: on the referred signup's page and in the referrals panel", async ({ page, context }) => {
  await signIn(context, ["waitlist:view"]);
  const waitlist = await openWaitlist();
  const tag = unique("c").replace(/\W/g, "");
  const join = async (email: string, referralCode?: string) => (await joinWaitlist({ waitlistId: waitlist.id, email, customInputs: [], referralCode })).signup;
  const owner = await join(`owner.${tag}@example.com`);
  const lookalikes = [];
  for (const index of [1, 2, 3]) lookalikes.push(await join(`Owner.${tag}+${index}@example.com`, owner.referral_code));
  // REFERRALS_PER_REFERRER_PER_DAY is 25: the 26th friend of the day does not count.
  const friends = [];
  for (let index = 0; index < 26; index++) friends.push(await join(`friend${index}.${tag}@example.com`, owner.referral_code));
  await updateJoinSettings(waitlist.id, { verification: true }, "cli");
  const unconfirmed = await join(`late.${tag}@example.com`, owner.referral_code);

  await page.goto(`/waitlists/${waitlist.id}/signups/${lookalikes[0]!.id}`);
  await expect(page.getByTestId("signup-referrer")).toHaveText(owner.email);
  await expect(page.getByTestId("signup-referral-state")).toHaveText("(not counted: the referrer's own address again)");
  await page.goto(`/waitlists/${waitlist.id}/signups/${friends[25]!.id}`);
  await expect(page.getByTestId("signup-referral-state")).toHaveText("(not counted: the referrer's daily limit was reached)");
  await page.goto(`/waitlists/${waitlist.id}/signups/${unconfirmed.id}`);
  await expect(page.getByTestId("signup-referral-state")).toHaveText("(not counted yet: the address is not confirmed)");
  await page.goto(`/waitlists/${waitlist.id}/signups/${friends[0]!.id}`);
  await expect(page.getByTestId("signup-referral-state")).toHaveText("(counted)");
  await page.goto(`/waitlists/${waitlist.id}/signups/${owner.id}`);
  await expect(page.getByTestId("signup-referrals")).toHaveText("25");
  await expect(page.getByTestId("signup-referral-state")).toHaveCount(0);

  await page.goto(`/waitlists/${waitlist.id}`);
  const panel = page.getByTestId("top-referrers");
  await expect(panel.getByRole("listitem")).toHaveText([`owner.${tag}@example.com25 referrals`]);
  await expect(panel.getByTestId("referrals-not-counted")).toHaveText("Not counted: 1 not confirmed yet, 3 the referrer's own address again, 1 over a referrer's daily limit.");
  await expect(panel).toContainText("Signups imported with the referral flag name no referrer and count for no one.");
});
