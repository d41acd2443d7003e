import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { listAudit } from "@/lib/domain/audit/log";
import { joinLogoOf, setJoinLogo } from "@/lib/domain/branding/logo";
import { sniffImage } from "@/lib/domain/branding/image-type";
import { joinWaitlist } from "@/lib/domain/joining/join";
import { joinSettingsOf, updateJoinSettings } from "@/lib/domain/joining/settings";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { insertSignups } from "@/tests/support/insert-signups";
import { expectNoAxeViolations, SWEEP_TAGS } from "../support/axe";
import { joinThroughForm, openWaitlist } from "../support/join-fixtures";
import { baseURL, signIn, unique } from "../support/support";

// The join page in the brand (issue 31, item 6): an admin sets a headline, a description in the
// Markdown subset, an accent colour and a logo on the Joining page; the public page shows them on a
// phone, without JavaScript, axe-clean; a wrong, oversized or broken logo and a low-contrast colour
// are refused with the reason; the page's Open Graph card is an image the app draws. And the public
// leaderboard (item 4): masked addresses, 404 when off; the dashboard's referrals panel.

const PNG = readFileSync("tests/support/images/logo.png");
const ACCENT = "#0f766e";

async function saveJoining(page: Page, waitlistId: string, fill: (page: Page) => Promise<void>) {
  await page.goto(`/waitlists/${waitlistId}/join`);
  await fill(page);
  await page.getByRole("button", { name: "Save" }).click();
}

test("an admin brands the page; on a phone it shows the logo, headline, description and colour, axe-clean; without JavaScript it still joins", async ({ page, context, browser }) => {
  const admin = await signIn(context, ["waitlist:admin"]);
  const waitlist = await createWaitlist({ name: unique("Brand list"), website: "https://brand.example" });
  const description = "**Fast** beta for *small* teams.\n\nRead [the plan](https://brand.example/plan). <script>window.injected = 1</script><img src=x onerror=\"window.injected = 2\">";
  await saveJoining(page, waitlist.id, async () => {
    await page.getByLabel("Open: anyone with the link can join").check();
    await page.getByLabel(/Anti-spam challenge/).uncheck();
    await page.getByLabel(/^Headline/).fill("Acme is coming");
    await page.getByLabel("Description").fill(description);
    await page.getByLabel(/^Accent colour/).fill("#0F766E");
  });
  await expect(page.getByTestId("done-notice")).toHaveText("Join settings saved.");
  expect(await joinSettingsOf(waitlist.id)).toMatchObject({ headline: "Acme is coming", description, accentColor: ACCENT, leaderboard: false });

  await page.getByLabel("Logo file").setInputFiles({ name: "acme.png", mimeType: "image/png", buffer: PNG });
  await page.getByRole("button", { name: "Upload the logo" }).click();
  await expect(page.getByTestId("done-notice")).toHaveText("Logo saved.");
  await expect(page.getByTestId("current-logo")).toBeVisible();
  expect((await joinLogoOf(waitlist.id))?.contentType).toBe("image/png");
  expect((await listAudit({ action: "waitlist.join_settings", actor: admin.id, limit: 5 })).map((row) => row.summary)).toEqual([
    "logo set (image/png, 3 KB)",
    "joining open; challenge off; headline changed; description changed; accent colour #0f766e",
  ]);
  await page.screenshot({ path: "/tmp/brand-joining-settings.png", fullPage: true });

  const phone = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const join = await phone.newPage();
  await join.goto(`/join/${waitlist.id}`);
  await expect(join).toHaveTitle("Acme is coming");
  await expect(join.getByRole("heading", { level: 1 })).toHaveText("Acme is coming");
  const logo = join.getByTestId("join-logo");
  await expect(logo).toBeVisible();
  await expect(logo).toHaveAttribute("alt", `${waitlist.name} logo`);
  expect(await logo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(240);
  const text = join.getByTestId("join-description");
  await expect(text.locator("strong")).toHaveText("Fast");
  await expect(text.locator("em")).toHaveText("small");
  await expect(text.getByRole("link", { name: "the plan" })).toHaveAttribute("href", "https://brand.example/plan");
  await expect(text.getByRole("link", { name: "the plan" })).toHaveAttribute("rel", "nofollow noopener noreferrer");
  // The HTML in the description is text: no script, no img, and the text shows as typed.
  await expect(text).toContainText("<script>window.injected = 1</script>");
  expect(await text.locator("script, img").count()).toBe(0);
  const button = join.getByRole("button", { name: "Join the waitlist" });
  expect(await button.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe("rgb(15, 118, 110)");
  expect(await join.getByTestId("join-card").evaluate((element) => getComputedStyle(element).borderTopColor)).toBe("rgb(15, 118, 110)");
  expect(await join.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await join.screenshot({ path: "/tmp/brand-join-phone.png", fullPage: true });
  await expectNoAxeViolations(join, "branded join page", { tags: SWEEP_TAGS });
  await phone.close();
  // Without JavaScript (axe needs it, so apart): the same page, and joining works.
  const noScript = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 }, isMobile: true, javaScriptEnabled: false });
  const plain = await noScript.newPage();
  await plain.goto(`/join/${waitlist.id}`);
  await expect(plain.getByTestId("join-logo")).toBeVisible();
  await expect(plain.getByRole("heading", { level: 1 })).toHaveText("Acme is coming");
  await joinThroughForm(plain, `brand.${unique("b").replace(/\W/g, "")}@example.com`);
  await noScript.close();

  // The logo: the app's own URL, its sniffed type, cached for good at its version.
  const logoUrl = (await page.getByTestId("current-logo").getAttribute("src"))!;
  expect(logoUrl).toMatch(new RegExp(`^/join/${waitlist.id}/logo\\?v=\\d+$`));
  const served = await page.request.get(logoUrl);
  expect(served.headers()["content-type"]).toBe("image/png");
  expect(served.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect(Buffer.from(await served.body()).equals(PNG)).toBe(true);

  await page.getByRole("button", { name: "Remove the logo" }).click();
  await expect(page.getByTestId("done-notice")).toHaveText("Logo removed.");
  expect(await joinLogoOf(waitlist.id)).toBeUndefined();
  expect((await page.request.get(logoUrl)).status()).toBe(404);
});

test("a logo of the wrong type, too large or broken, and a low-contrast colour are refused with the reason; nothing changes", async ({ page, context }) => {
  await signIn(context, ["waitlist:admin"]);
  const waitlist = await openWaitlist({ accentColor: ACCENT });
  const upload = async (name: string, buffer: Buffer) => {
    await page.goto(`/waitlists/${waitlist.id}/join`);
    await page.getByLabel("Logo file").setInputFiles({ name, mimeType: "image/png", buffer });
    await page.getByRole("button", { name: "Upload the logo" }).click();
    return page.locator("body");
  };
  await expect(await upload("logo.png", Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>"))).toHaveText("Invalid logo: the file is not a PNG, JPEG or WebP image. Nothing was changed.");
  const oversized = Buffer.concat([PNG, Buffer.alloc(300 * 1024)]);
  await expect(await upload("big.png", oversized)).toHaveText(`Invalid logo: the file has ${oversized.length.toLocaleString("en-US")} bytes, more than the 200 KB a logo may have. Nothing was changed.`);
  await expect(await upload("cut.png", PNG.subarray(0, 24))).toHaveText("Invalid logo: the file starts like an image but is broken (its header is cut short or gives no size). Nothing was changed.");
  expect(await joinLogoOf(waitlist.id)).toBeUndefined();

  await saveJoining(page, waitlist.id, async () => {
    await page.getByLabel(/^Accent colour/).fill("#7dd3fc");
    await page.getByLabel(/^Headline/).fill("Not saved");
  });
  await expect(page.locator("body")).toContainText(/Invalid join settings: accentColor: the accent colour #7dd3fc has a contrast of 1\.\d\d:1 against the button's white text and the page; WCAG AA needs 4\.5:1, so choose a darker colour\. Nothing was changed\./);
  expect(await joinSettingsOf(waitlist.id)).toMatchObject({ accentColor: ACCENT, headline: "" });
  expect((await listAudit({ action: "waitlist.join_settings", limit: 50 })).filter((row) => row.target === waitlist.id)).toHaveLength(1);
});

test("a logo upload from another site or with a view key is refused; nothing changes", async ({ page, context, browser }) => {
  await signIn(context, ["waitlist:admin"]);
  const waitlist = await openWaitlist();
  const multipart = { logo: { name: "logo.png", mimeType: "image/png", buffer: PNG } };
  const forged = await page.request.post(`/waitlists/${waitlist.id}/join/logo`, { multipart, headers: { origin: "https://evil.example" }, maxRedirects: 0 });
  expect(forged.status()).toBe(403);
  expect(await forged.text()).toContain("Refused: the request comes from https://evil.example");
  const viewer = await browser.newContext({ baseURL });
  await signIn(viewer, ["waitlist:view"]);
  const denied = await (await viewer.newPage()).request.post(`/waitlists/${waitlist.id}/join/logo`, { multipart, headers: { origin: baseURL }, maxRedirects: 0 });
  expect(denied.status()).toBe(403);
  await viewer.close();
  expect(await joinLogoOf(waitlist.id)).toBeUndefined();
  const same = await page.request.post(`/waitlists/${waitlist.id}/join/logo`, { multipart, headers: { origin: baseURL }, maxRedirects: 0 });
  expect(same.status()).toBe(303);
  expect((await joinLogoOf(waitlist.id))?.contentType).toBe("image/png");
});

test("the join page's Open Graph card: og: and twitter: tags with absolute URLs, and an image the app draws as a PNG", async ({ page }) => {
  const waitlist = await openWaitlist({ headline: "Acme is coming 🚀", description: "**Fast** beta for [small](https://brand.example) teams.", accentColor: ACCENT });
  await setJoinLogo(waitlist.id, PNG, "cli");
  await page.goto(`/join/${waitlist.id}`);
  const meta = (selector: string) => page.locator(`meta[${selector}]`).getAttribute("content");
  expect(await meta('property="og:title"')).toBe("Acme is coming 🚀");
  expect(await meta('property="og:description"')).toBe("Fast beta for small teams.");
  expect(await meta('name="twitter:card"')).toBe("summary_large_image");
  const image = (await meta('property="og:image"'))!;
  expect(image).toMatch(new RegExp(`^https?://[^/]+/join/${waitlist.id}/card\\.png$`));
  expect(await meta('property="og:url"')).toBe(image.replace(/\/card\.png$/, ""));
  expect(await meta('name="twitter:image"')).toBe(image);
  const card = await page.request.get(new URL(new URL(image).pathname, baseURL).href);
  expect(card.status()).toBe(200);
  expect(card.headers()["content-type"]).toBe("image/png");
  const bytes = new Uint8Array(await card.body());
  expect(sniffImage(bytes)).toEqual({ type: "image/png", width: 1200, height: 630 });
  await page.goto(new URL(new URL(image).pathname, baseURL).href);
  await page.screenshot({ path: "/tmp/brand-og-card.png" });
});

test("the leaderboard: 404 until turned on, then the top referrers by counted referrals with masked addresses only", async ({ page }) => {
  const waitlist = await openWaitlist();
  const tag = unique("lb").replace(/\W/g, "");
  const join = async (email: string, referralCode?: string) => (await joinWaitlist({ waitlistId: waitlist.id, email, customInputs: [], referralCode })).signup;
  const ada = await join(`ada.${tag}@gmail.com`);
  const bo = await join(`b.${tag}@mail.example.org`, ada.referral_code);
  await join(`cy.${tag}@example.net`, ada.referral_code);
  await join(`ada.${tag}+again@gmail.com`, ada.referral_code);
  await join(`dee.${tag}@example.net`, bo.referral_code);
  expect((await page.goto(`/join/${waitlist.id}/leaderboard`))!.status()).toBe(404);
  await page.goto(`/join/${waitlist.id}`);
  await expect(page.getByRole("link", { name: "See the top referrers" })).toHaveCount(0);

  await updateJoinSettings(waitlist.id, { leaderboard: true }, "cli");
  await page.goto(`/join/${waitlist.id}`);
  await page.getByRole("link", { name: "See the top referrers" }).click();
  await expect(page).toHaveURL(`/join/${waitlist.id}/leaderboard`);
  await expect(page.getByTestId("leaderboard").getByRole("listitem")).toHaveText(["1.a***@g***.com2 referrals", "2.b***@m***.org1 referral"]);
  const html = await page.content();
  for (const secret of [tag, ada.referral_code!, "example.net"]) expect(html).not.toContain(secret);
  await expectNoAxeViolations(page, "leaderboard", { tags: SWEEP_TAGS });
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await page.screenshot({ path: "/tmp/brand-leaderboard-phone.png", fullPage: true });

  await updateJoinSettings(waitlist.id, { leaderboard: false }, "cli");
  expect((await page.goto(`/join/${waitlist.id}/leaderboard`))!.status()).toBe(404);
});

test("the referrals panel counts counted referrals and says what is true of imported referral flags without a referrer", async ({ page, context }) => {
  await signIn(context, ["waitlist:view"]);
  const imported = await createWaitlist({ name: unique("Imported referrals"), website: "https://imported.example" });
  const tag = unique("imp").replace(/\W/g, "");
  insertSignups(imported.id, Array.from({ length: 3 }, (_, index) => ({ email: `imported${index}.${tag}@example.com`, verified: false, referral: true, customInputs: "[]" })));
  await page.goto(`/waitlists/${imported.id}`);
  const panel = page.getByTestId("top-referrers");
  await expect(panel.getByTestId("referrals-none")).toHaveText("3 signups are marked as referred (imported, or their referrer was erased); none names its referrer, so no referral counts.");
  await expect(panel).not.toContainText("No one has joined through a referral link yet");

  const waitlist = await openWaitlist();
  insertSignups(waitlist.id, [{ email: `flag.${tag}@example.com`, verified: false, referral: true, customInputs: "[]" }]);
  const join = async (email: string, referralCode?: string) => (await joinWaitlist({ waitlistId: waitlist.id, email, customInputs: [], referralCode })).signup;
  const owner = await join(`owner.${tag}@example.com`);
  await join(`friend1.${tag}@example.com`, owner.referral_code);
  await join(`friend2.${tag}@example.com`, owner.referral_code);
  await join(`Owner.${tag}+1@example.com`, owner.referral_code);
  await page.goto(`/waitlists/${waitlist.id}`);
  await expect(panel.getByRole("listitem")).toHaveText([`owner.${tag}@example.com2 referrals`]);
  await expect(panel.getByTestId("referrals-counted")).toHaveText("Counted: 2 referrals.");
  await expect(panel.getByTestId("referrals-not-counted")).toHaveText("Not counted: 1 the referrer's own address again.");
  await expect(panel.getByTestId("referrals-without-referrer")).toHaveText("Marked as referred but naming no referrer (imported, or their referrer was erased): 1 signup, counted for no one.");
  await panel.screenshot({ path: "/tmp/brand-referrals-panel.png" });

  const empty = await createWaitlist({ name: unique("No referrals"), website: "https://none.example" });
  await page.goto(`/waitlists/${empty.id}`);
  await expect(panel.getByTestId("referrals-none")).toHaveText("No one has joined through a referral link yet.");
});
