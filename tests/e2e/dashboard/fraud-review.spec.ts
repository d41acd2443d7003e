import { expect, test } from "@playwright/test";
import { listAudit } from "@/lib/domain/audit/log";
import { joinWaitlist } from "@/lib/domain/joining/join";
import { joinSettingsOf } from "@/lib/domain/joining/settings";
import { openWaitlist, signupsOf } from "../support/join-fixtures";
import { expectNoAxeViolations } from "../support/axe";
import { rawSql } from "../support/raw-sql";
import { signIn } from "../support/support";

// Fraud defence in the dashboard (lib/domain/fraud): the Joining page's setting for disposable
// addresses, which the public page follows (refused with one sentence, or accepted and flagged), and
// the review view, where an admin approves flagged referrals in bulk through a confirmation page; the
// referrals then count in the waitlist's referrals panel.

const referralStates = async (waitlistId: string) => (await rawSql.all<{ state: string }>("SELECT state FROM referrals WHERE waitlist_id = ? ORDER BY signup_id", waitlistId)).map((row) => row.state);

test("a disposable address is refused or flagged per the setting, and an admin approves flagged referrals in bulk", async ({ page, context }) => {
  const admin = await signIn(context, ["waitlist:admin"]);
  const waitlist = await openWaitlist();
  const ada = (await joinWaitlist({ waitlistId: waitlist.id, email: "ada@example.com", customInputs: [] })).signup;

  // Refuse, set on the Joining page: the public page says one sentence and stores nothing.
  await page.goto(`/waitlists/${waitlist.id}/join`);
  await expect(page.getByLabel(/^Flag for review/)).toBeChecked();
  await page.getByLabel(/^Refuse:/).check();
  await page.getByRole("group", { name: "Disposable email addresses" }).screenshot({ path: "/tmp/fraud-joining-setting.png" });
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("done-notice")).toHaveText("Join settings saved.");
  expect((await joinSettingsOf(waitlist.id)).disposable).toBe("refuse");
  expect((await listAudit({ action: "waitlist.join_settings", actor: admin.id, limit: 1 }))[0]).toMatchObject({ target: waitlist.id, summary: "disposable addresses: refuse" });
  await page.goto(`/join/${waitlist.id}?ref=${ada.referral_code}`);
  await page.getByLabel("Email address").fill("friend@mailinator.com");
  await page.getByRole("button", { name: "Join the waitlist" }).click();
  await expect(page.getByTestId("join-error")).toHaveText("This waitlist does not accept disposable email addresses: please use your own address.");
  expect((await signupsOf(waitlist.id)).map((signup) => signup.email)).toEqual(["ada@example.com"]);

  // Flag: the same address joins through the referral link and waits for review, its referral held.
  await page.goto(`/waitlists/${waitlist.id}/join`);
  await page.getByLabel(/^Flag for review/).check();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("done-notice")).toBeVisible();
  await page.goto(`/join/${waitlist.id}?ref=${ada.referral_code}`);
  await page.getByLabel("Email address").fill("friend@mailinator.com");
  await page.getByRole("button", { name: "Join the waitlist" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("in line");
  await joinWaitlist({ waitlistId: waitlist.id, email: "other@yopmail.com", customInputs: [], referralCode: ada.referral_code });
  expect(await referralStates(waitlist.id)).toEqual(["flagged", "flagged"]);

  await page.goto(`/waitlists/${waitlist.id}`);
  await expect(page.getByTestId("top-referrers")).toContainText("2 held for review");
  // The flag facet, under the other filters: both are referrals, neither is verified.
  await page.goto(`/waitlists/${waitlist.id}?referral=true`);
  await expect(page.getByTestId("facet-flag-disposable")).toHaveText("2");
  await expect(page.getByTestId("facet-flag-lookalike")).toHaveText("0");
  await page.goto(`/waitlists/${waitlist.id}?verified=true`);
  await expect(page.getByTestId("facet-flag-disposable")).toHaveText("0");
  await page.goto(`/waitlists/${waitlist.id}`);
  await page.getByRole("link", { name: "Review", exact: true }).click();
  await expect(page).toHaveURL(`/waitlists/${waitlist.id}/review`);
  await expect(page.getByTestId("flag-facet")).toHaveText("Disposable address: 2");
  const table = page.getByTestId("review-table");
  await expect(table.getByRole("row")).toHaveCount(3);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: "/tmp/fraud-review.png", fullPage: true });
  await expectNoAxeViolations(page, "review");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "/tmp/fraud-review-phone.png", fullPage: true });

  // Both selected, then approved on the confirmation page.
  await page.getByLabel("Select friend@mailinator.com").check();
  await page.getByLabel("Select other@yopmail.com").check();
  await page.getByRole("button", { name: "Approve selected…" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Approve 2 signups?");
  await expect(page.getByTestId("action-count")).toHaveText("2");
  await page.screenshot({ path: "/tmp/fraud-review-confirm-phone.png", fullPage: true });
  await page.getByRole("button", { name: "Approve 2 signups" }).click();
  await expect(page).toHaveURL(`/waitlists/${waitlist.id}/review?done=approved`);
  await expect(page.getByTestId("done-notice")).toHaveText("Signups approved.");
  await expect(page.getByTestId("review-empty")).toBeVisible();
  expect(await referralStates(waitlist.id)).toEqual(["counted", "counted"]);
  expect((await listAudit({ action: "signups.flag_approve", actor: admin.id, limit: 1 }))[0]).toMatchObject({ target: waitlist.id, summary: "approved 2 flagged signups" });

  // The referrals now count in the referrals panel.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/waitlists/${waitlist.id}`);
  const panel = page.getByTestId("top-referrers");
  await expect(panel.getByRole("listitem")).toHaveText(["ada@example.com2 referrals"]);
  await expect(page.getByTestId("referrals-not-counted")).toHaveCount(0);
});

test("a view key cannot open the review, and a forged cross-site decision changes nothing", async ({ page, context, request }) => {
  await signIn(context, ["waitlist:view"]);
  const waitlist = await openWaitlist();
  const fake = (await joinWaitlist({ waitlistId: waitlist.id, email: "fake@mailinator.com", customInputs: [] })).signup;
  const response = await page.goto(`/waitlists/${waitlist.id}/review`);
  expect(response?.status()).toBe(404);
  const forged = await request.post(`/waitlists/${waitlist.id}/review/approve/confirm`, { form: { ids: String(fake.id) }, headers: { Origin: "https://evil.example" }, maxRedirects: 0 });
  expect(forged.status()).toBeGreaterThanOrEqual(400);
  expect(await rawSql.get("SELECT decision FROM signup_flags WHERE signup_id = ?", fake.id)).toEqual({ decision: "pending" });
});
