import { expect, test } from "@playwright/test";
import { listAudit } from "@/lib/domain/audit/log";
import { joinWaitlist } from "@/lib/domain/joining/join";
import { signupPosition } from "@/lib/domain/joining/position";
import { createApiKey } from "@/lib/domain/keys/queries";
import { signupPublicId } from "@/lib/domain/signups/id";
import { personPagePath } from "@/lib/domain/verification/email";
import { addEndpoint, removeEndpoint } from "@/lib/domain/webhooks/endpoints";
import { bearer } from "../support/api-fixtures";
import { expectNoAxeViolations } from "../support/axe";
import { joinThroughForm, openWaitlist, signupsOf } from "../support/join-fixtures";
import { signIn, unique } from "../support/support";
import { eventually, startReceiver } from "../support/webhook-receiver";

// Milestones (issue 31, item 3), in Chromium against the real server: an admin sets them on the
// Joining page (audited; a bad line refused with its reason, nothing changed); a friend joins through
// a person's link, and the person reaches the first: on their own page, moved up its places, its event
// at a real webhook receiver; the list's milestone facet and filter, and the same filter in /v1.

test("an admin sets milestones; a friend's join through the link reaches the first: the person's page, the webhook, the facet and /v1", async ({ page, context, browser, request }) => {
  const admin = await signIn(context, ["waitlist:admin"]);
  const waitlist = await openWaitlist();
  const tag = unique("mile").replace(/\W/g, "");
  let secret = "";
  const receiver = await startReceiver(() => secret);
  const endpoint = await addEndpoint("cli", { url: receiver.url, waitlist: waitlist.id, events: ["signup.milestone_reached"] });
  secret = endpoint.secret;
  try {
    const people = [];
    for (let index = 0; index < 4; index++) people.push((await joinWaitlist({ waitlistId: waitlist.id, email: `p${index}.${tag}@example.com`, customInputs: [] })).signup);

    await page.goto(`/waitlists/${waitlist.id}/join`);
    await expect(page.getByTestId("milestones-now")).toHaveText("No milestones yet.");
    // A bad line: refused with its reason, nothing saved.
    await page.getByLabel(/^Milestones, one per line/).fill("0:Nobody");
    await page.getByRole("button", { name: "Set milestones" }).click();
    await expect(page.locator("body")).toContainText("needs a number of referrals from 1 to 10,000");
    await page.goBack();

    await page.getByLabel(/^Milestones, one per line/).fill("1:Early bird:2:Thanks for sharing, {{email}}!\n3:Early access");
    await page.getByRole("button", { name: "Set milestones" }).click();
    await expect(page.getByTestId("done-notice")).toHaveText("Milestones saved.");
    await expect(page.getByTestId("milestones-now")).toContainText("Early bird: 1 counted referral, moves up 2 places");
    await expect(page.getByTestId("milestones-now")).toContainText("Early access: 3 counted referrals");
    expect((await listAudit({ action: "waitlist.milestones", actor: admin.id, limit: 1 }))[0]).toMatchObject({ target: waitlist.id, summary: "milestones 1:Early bird:2:Thanks for sharing, {{email}}! | 3:Early access" });
    await expectNoAxeViolations(page, "the joining page with milestones");

    // A person joins through the page and shares the link; a friend joins through it.
    const owner = await browser.newContext();
    const ownerPage = await owner.newPage();
    await ownerPage.goto(`/join/${waitlist.id}`);
    await joinThroughForm(ownerPage, `owner.${tag}@example.com`);
    const referralLink = await ownerPage.getByLabel("Your referral link").inputValue();
    const ownerId = (await signupsOf(waitlist.id)).find((signup) => signup.email === `owner.${tag}@example.com`)!.id;
    await ownerPage.goto(await personPagePath(waitlist.id, ownerId));
    await expect(ownerPage.getByTestId("person-milestones")).toContainText("Early bird (moves you up 2 places): 1 counted referral; 1 more counted referral to go");

    const friend = await browser.newContext();
    const friendPage = await friend.newPage();
    await friendPage.goto(referralLink);
    await joinThroughForm(friendPage, `friend.${tag}@example.com`);

    await ownerPage.reload();
    const reached = ownerPage.getByTestId("person-milestones").locator("li").first();
    await expect(reached).toHaveAttribute("data-reached", "true");
    await expect(reached).toContainText(`Early bird (moves you up 2 places): reached on ${new Date().toISOString().slice(0, 10)}`);
    await expect(reached).toContainText(`Thanks for sharing, owner.${tag}@example.com!`);
    await expect(ownerPage.getByTestId("person-milestones").locator("li").nth(1)).toContainText("Early access: 3 counted referrals; 2 more counted referrals to go");
    await expect(ownerPage.getByRole("heading", { level: 1 })).toHaveText("You're number 3 in line");
    expect(await signupPosition(waitlist.id, ownerId)).toBe(3);
    await expectNoAxeViolations(ownerPage, "the person's page with a milestone reached");

    // Its event at a real receiver, signed, naming the milestone.
    await eventually("the milestone's webhook", () => receiver.received.some((each) => each.body.type === "signup.milestone_reached"));
    const delivered = receiver.received.find((each) => each.body.type === "signup.milestone_reached")!;
    expect(delivered.signatureValid).toBe(true);
    expect(delivered.body.data).toMatchObject({ waitlist_id: waitlist.id, milestone: { referrals: 1, label: "Early bird" }, signup: { id: signupPublicId(ownerId), email: `owner.${tag}@example.com` } });

    // The list's facet and filter, and the same filter in /v1.
    await page.goto(`/waitlists/${waitlist.id}`);
    await expect(page.getByTestId("facet-milestone-Early bird")).toHaveText("1");
    await expect(page.getByTestId("facet-milestone-Early access")).toHaveText("0");
    await page.getByRole("link", { name: /^Early bird/ }).click();
    await expect(page).toHaveURL(/milestone=Early(\+|%20)bird/);
    const rows = page.getByRole("row").filter({ has: page.getByRole("link", { name: /@example\.com$/ }) });
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(`owner.${tag}@example.com`);
    await expect(page.getByTestId("api-url")).toContainText("milestone=Early");

    const viewer = (await createApiKey({ name: `milestones ${tag}`, roles: ["waitlist:view"] })).key;
    const answer = await request.get(`/v1/waitlist/${waitlist.id}/signup?milestone=early%20BIRD`, { headers: bearer(viewer) });
    expect(answer.status()).toBe(200);
    expect(((await answer.json()) as { email: string }[]).map((signup) => signup.email)).toEqual([`owner.${tag}@example.com`]);
    const bad = await request.get(`/v1/waitlist/${waitlist.id}/signup?milestone=a,,b`, { headers: bearer(viewer) });
    expect(bad.status()).toBe(400);
    expect(((await bad.json()) as { detail: string }).detail).toContain("milestone");
    expect(people).toHaveLength(4);
    await owner.close();
    await friend.close();
  } finally {
    await removeEndpoint("cli", endpoint.id);
    await receiver.close();
  }
});
