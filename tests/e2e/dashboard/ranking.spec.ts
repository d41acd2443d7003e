import { expect, test } from "@playwright/test";
import { listAudit } from "@/lib/domain/audit/log";
import { joinWaitlist } from "@/lib/domain/joining/join";
import { signupPosition } from "@/lib/domain/joining/position";
import { rankingRuleOf } from "@/lib/domain/ranking/rules";
import { signupPublicId } from "@/lib/domain/signups/id";
import { personPagePath } from "@/lib/domain/verification/email";
import { expectNoAxeViolations } from "../support/axe";
import { joinThroughForm, openWaitlist, signupsOf } from "../support/join-fixtures";
import { signIn, unique } from "../support/support";

// Ranking rules in the dashboard and on the join page, in Chromium: an admin previews a rule (nothing
// changes) and applies it (audited); a friend joins through a referral link and the referrer moves up
// at once: on the referrer's own page, on its dashboard page, and in the list sorted by place.

test("an admin previews and applies 'move up 2 places per referral'; a friend's join through the link moves the referrer at once", async ({ page, context, browser }) => {
  const admin = await signIn(context, ["waitlist:admin"]);
  const waitlist = await openWaitlist();
  const tag = unique("rank").replace(/\W/g, "");
  const people = [];
  for (let index = 0; index < 5; index++) people.push((await joinWaitlist({ waitlistId: waitlist.id, email: `p${index}.${tag}@example.com`, customInputs: [] })).signup);
  await joinWaitlist({ waitlistId: waitlist.id, email: `early.friend.${tag}@example.com`, customInputs: [], referralCode: people[3]!.referral_code });

  await page.goto(`/waitlists/${waitlist.id}/join`);
  await expect(page.getByTestId("ranking-now")).toHaveText("First come, first served");
  await page.getByLabel("Move up a number of places for each counted referral").check();
  await page.getByLabel("Places (or hours) per referral").fill("2");
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByTestId("ranking-preview")).toContainText(`p3.${tag}@example.com: moves from #4 to #2`);
  await expect(page.getByTestId("ranking-preview")).toContainText(`p0.${tag}@example.com: stays at #1`);
  // A preview changes nothing.
  expect(await signupPosition(waitlist.id, people[3]!.id)).toBe(4);
  expect(await rankingRuleOf(waitlist.id)).toEqual({ kind: "first-come" });
  await expectNoAxeViolations(page, "the joining page with a ranking preview");

  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("done-notice")).toHaveText("Ranking rule applied: places follow it now.");
  await expect(page.getByTestId("ranking-now")).toHaveText("Move up 2 places for each counted referral");
  expect(await signupPosition(waitlist.id, people[3]!.id)).toBe(2);
  expect((await listAudit({ action: "waitlist.ranking", actor: admin.id, limit: 1 }))[0]).toMatchObject({ target: waitlist.id, summary: "ranking referrals:2 (was first-come)" });

  // p4 joins through the page, keeps its page open in its own browser, and shares its link.
  const owner = await browser.newContext();
  const ownerPage = await owner.newPage();
  await ownerPage.goto(`/join/${waitlist.id}`);
  await joinThroughForm(ownerPage, `owner.${tag}@example.com`);
  await expect(ownerPage.getByRole("heading", { level: 1 })).toHaveText("You're number 7 in line");
  const referralLink = await ownerPage.getByLabel("Your referral link").inputValue();

  const friend = await browser.newContext();
  const friendPage = await friend.newPage();
  await friendPage.goto(referralLink);
  await joinThroughForm(friendPage, `friend.${tag}@example.com`);
  await expect(friendPage.getByRole("heading", { level: 1 })).toHaveText("You're number 8 in line");

  await ownerPage.reload();
  await expect(ownerPage.getByRole("heading", { level: 1 })).toHaveText("You're number 5 in line");
  const ownerId = (await signupsOf(waitlist.id)).find((signup) => signup.email === `owner.${tag}@example.com`)!.id;
  await page.goto(`/waitlists/${waitlist.id}/signups/${signupPublicId(ownerId)}`);
  await expect(page.getByTestId("signup-position")).toHaveText("5");
  // The owner's own page (the link every email carries) says how the place moved.
  await ownerPage.goto(await personPagePath(waitlist.id, ownerId));
  await expect(ownerPage.getByRole("heading", { level: 1 })).toHaveText("You're number 5 in line");
  await expect(ownerPage.getByTestId("place-moved")).toHaveText("Your referrals moved you up 2 places: by the order of joining alone you would be number 7.");
  await ownerPage.goto(await personPagePath(waitlist.id, people[4]!.id));
  await expect(ownerPage.getByTestId("place-moved")).toContainText("Others' referrals moved them ahead of you: by the order of joining alone you would be number 5.");

  // The list sorted by place: the line, each row with its place.
  await page.goto(`/waitlists/${waitlist.id}?sort=position&dir=asc`);
  const rows = page.getByRole("row").filter({ has: page.getByRole("link", { name: /@example\.com$/ }) });
  await expect(rows).toHaveCount(8);
  await expect(rows.nth(1)).toContainText(`p3.${tag}@example.com`);
  await expect(rows.nth(1)).toContainText("#2");
  await expect(rows.nth(4)).toContainText(`owner.${tag}@example.com`);
  await expect(page.getByTestId("api-url")).toContainText("sort=position");
  await owner.close();
  await friend.close();
});
