import { expect, test } from "@playwright/test";
import { referrerOf } from "@/lib/domain/joining/referrals";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { rawSql } from "../support/raw-sql";
import { seedSignups } from "../support/seed-signups";
import { expectNoAxeViolations, SWEEP_TAGS } from "../support/axe";
import { joinThroughForm, openWaitlist, signupsOf } from "../support/join-fixtures";
import { baseURL, unique } from "../support/support";

// The hosted join page /join/{id}: a plain form that works without JavaScript, the place in line
// and the referral link after joining, the same answer as a new address (and nothing about the
// person) for an address already on the list, a referral link, a closed list, and a phone's width.

test("without JavaScript: join, see the place in line and the referral link; the same address in another case changes nothing and shows nothing of it", async ({ browser }) => {
  const waitlist = await openWaitlist({ successMessage: "Thanks! We'll write soon.", fields: [{ label: "Company", type: "text", required: true }, { label: "Plan", type: "choice", options: ["Free", "Pro"], required: false }] });
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const page = await context.newPage();
  const tag = unique("nojs").replace(/\W/g, "");
  await page.goto(`/join/${waitlist.id}`);
  await expect(page).toHaveTitle(`Join the ${waitlist.name} waitlist`);
  await page.getByLabel("Company").fill("Acme");
  await page.getByLabel("Plan").selectOption("Pro");
  await joinThroughForm(page, `First.${tag}@Example.com`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("You're number 1 in line");
  await expect(page.getByTestId("success-message")).toHaveText("Thanks! We'll write soon.");
  const [first] = await signupsOf(waitlist.id);
  expect(first).toMatchObject({ email: `First.${tag}@Example.com`, verified: false, referral: false, status: "waiting", customInputs: [{ label: "Company", value: "Acme" }, { label: "Plan", value: "Pro" }] });
  const referralLink = await page.getByLabel("Your referral link").inputValue();
  expect(referralLink).toMatch(new RegExp(`^${baseURL}/join/${waitlist.id}\\?ref=[A-Za-z0-9]{10}$`));

  // A second person is number 2; the first address, typed again in another case, learns only that it
  // is on the list (this server sends no email: "check with the list's owner"), and nothing is created.
  await page.goto(`/join/${waitlist.id}`);
  await page.getByLabel("Company").fill("Initech");
  await joinThroughForm(page, `second.${tag}@example.com`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("You're number 2 in line");
  await page.goto(`/join/${waitlist.id}`);
  await page.getByLabel("Company").fill("Something else");
  await page.getByLabel("Email address").fill(`FIRST.${tag}@EXAMPLE.COM`);
  await page.getByRole("button", { name: "Join the waitlist" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("This address is already on the list");
  await expect(page.getByTestId("joined-notice")).toHaveText("Nothing has changed. To learn your place in line, check with the list's owner.");
  await expect(page.getByLabel("Your referral link")).toHaveCount(0);
  expect(await page.content()).not.toContain(referralLink.split("ref=")[1]!);
  expect((await signupsOf(waitlist.id)).map((signup) => signup.email)).toEqual([`First.${tag}@Example.com`, `second.${tag}@example.com`]);
  expect((await signupsOf(waitlist.id))[0]!.customInputs).toEqual([{ label: "Company", value: "Acme" }, { label: "Plan", value: "Pro" }]);

  // A required field left out, an invalid address: the form again, saying what to fix, nothing created.
  const missing = await page.request.post(`/join/${waitlist.id}/submit`, { form: { email: `third.${tag}@example.com` }, headers: { origin: baseURL }, maxRedirects: 0 });
  expect(missing.status()).toBe(303);
  expect(missing.headers().location).toBe(`/join/${waitlist.id}?error=invalid_inputs`);
  await page.goto(`/join/${waitlist.id}?error=invalid_email`);
  await expect(page.getByTestId("join-error")).toHaveText("Please enter a valid email address.");
  expect(await signupsOf(waitlist.id)).toHaveLength(2);
  await context.close();
});

test("an address already on the list gets the answer a new one gets: same status, Location and cookie (name, attributes, length); no id or token; its page shows nothing of the person", async ({ page, playwright }) => {
  const waitlist = await openWaitlist({ fields: [{ label: "Company", type: "text", required: false }] });
  const tag = unique("same").replace(/\W/g, "");
  await seedSignups(waitlist.id, [{ email: `Known.${tag}@Example.com`, verified: true, referral: true, customInputs: JSON.stringify([{ label: "Company", value: `Secret Corp ${tag}` }]) }]);
  await applyStatusAction("cli", { action: "invite", selection: { waitlistId: waitlist.id, emails: [`known.${tag}@example.com`] } });
  const [known] = await signupsOf(waitlist.id);

  // Raw HTTP, no browser: each POST from a client of its own (no cookie sent).
  const submit = async (email: string) => {
    const client = await playwright.request.newContext({ baseURL });
    const answer = await client.post(`/join/${waitlist.id}/submit`, { form: { email, field_0: "Acme" }, headers: { origin: baseURL }, maxRedirects: 0 });
    const result = { status: answer.status(), headers: answer.headers(), body: await answer.text(), cookie: answer.headersArray().filter((header) => header.name.toLowerCase() === "set-cookie").map((header) => header.value) };
    await client.dispose();
    return result;
  };
  const fresh = await submit(`new.${tag}@example.com`);
  const existing = await submit(`KNOWN.${tag}@example.com`);
  const [created] = (await signupsOf(waitlist.id)).filter((signup) => signup.email === `new.${tag}@example.com`);
  for (const answer of [fresh, existing]) {
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe(`/join/${waitlist.id}/joined`);
    expect(answer.body).toBe("");
    expect(answer.cookie).toHaveLength(1);
    expect(answer.cookie[0]).toMatch(new RegExp(`^joined=[A-Za-z0-9_-]{127}; Path=/join/${waitlist.id}; Max-Age=2592000; HttpOnly; SameSite=Lax$`));
    // Nothing that names a signup: no id, no token (the cookie's value is opaque: checked by length above).
    const named = [answer.headers.location, answer.body, ...answer.cookie.map((cookie) => cookie.replace(/^joined=[^;]*/, "joined=sealed"))].join("\n").replaceAll(waitlist.id, "{id}");
    for (const id of [known!.id, created!.id]) expect(named).not.toMatch(new RegExp(`\\b${id}\\b`));
    expect(named).not.toMatch(/[?&]t=|token/);
  }
  expect(Object.keys(existing.headers).sort()).toEqual(Object.keys(fresh.headers).sort());
  expect(existing.cookie[0]!.length).toBe(fresh.cookie[0]!.length);
  expect(await signupsOf(waitlist.id)).toHaveLength(2);
  expect((await signupsOf(waitlist.id))[0]!.customInputs).toEqual([{ label: "Company", value: `Secret Corp ${tag}` }]);

  // The follow-up page: the new address's own page; the existing one's says only that it is on the list.
  const follow = async (cookie: string) => {
    await page.context().clearCookies();
    const [name, value] = cookie.split(";")[0]!.split("=");
    await page.context().addCookies([{ name: name!, value: value!, domain: new URL(baseURL).hostname, path: `/join/${waitlist.id}` }]);
    await page.goto(`/join/${waitlist.id}/joined`);
    return page.content();
  };
  await follow(fresh.cookie[0]!);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("You're number 1 in line");
  await expect(page.getByLabel("Your referral link")).toHaveValue(new RegExp(`ref=[a-z0-9]{10}$`));
  const html = await follow(existing.cookie[0]!);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("This address is already on the list");
  const knownCode = (await rawSql.get<{ code: string | null }>("SELECT referral_code AS code FROM signups WHERE id = ?", known!.id))!;
  for (const secret of ["You're number", "Your referral link", "?ref=", "Secret Corp", "invited", "confirmed", `Known.${tag}`, "Send the email again", ...(knownCode.code ? [knownCode.code] : [])]) expect(html).not.toContain(secret);
  // Without the cookie, or with a forged one: nothing to show.
  await page.context().clearCookies();
  await page.goto(`/join/${waitlist.id}/joined`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Nothing to show here");
});

test("a referral link: who joins through it is a referral of its owner", async ({ page }) => {
  const waitlist = await openWaitlist();
  const tag = unique("ref").replace(/\W/g, "");
  await page.goto(`/join/${waitlist.id}`);
  await joinThroughForm(page, `owner.${tag}@example.com`);
  const referralLink = await page.getByLabel("Your referral link").inputValue();
  await page.context().clearCookies();
  await page.goto(referralLink);
  await joinThroughForm(page, `friend.${tag}@example.com`);
  const [owner, friend] = await signupsOf(waitlist.id);
  expect(friend).toMatchObject({ email: `friend.${tag}@example.com`, referral: true });
  expect(await referrerOf(friend!.id)).toEqual({ id: owner!.id, email: owner!.email });
  expect(owner!.referral).toBe(false);
  // An unknown code: still a signup, not a referral.
  await page.goto(`/join/${waitlist.id}?ref=nobodys-code`);
  await joinThroughForm(page, `stranger.${tag}@example.com`);
  expect((await signupsOf(waitlist.id))[2]).toMatchObject({ email: `stranger.${tag}@example.com`, referral: false });
});

test("a closed list says so and refuses a join; an unknown list is a 404; a honeypot filled in creates nothing", async ({ page }) => {
  const waitlist = await openWaitlist({ joining: "closed" });
  await page.goto(`/join/${waitlist.id}`);
  await expect(page.getByTestId("join-closed")).toHaveText("This waitlist is not taking new signups right now.");
  await expect(page.getByLabel("Email address")).toHaveCount(0);
  const refused = await page.request.post(`/join/${waitlist.id}/submit`, { form: { email: "closed@example.com" }, headers: { origin: baseURL }, maxRedirects: 0 });
  expect(refused.headers().location).toBe(`/join/${waitlist.id}?error=closed`);
  expect(await signupsOf(waitlist.id)).toHaveLength(0);

  expect((await page.goto("/join/00000000-0000-4000-8000-000000000000"))!.status()).toBe(404);

  const open = await openWaitlist();
  const bot = await page.request.post(`/join/${open.id}/submit`, { form: { email: "bot@example.com", website_url: "https://spam.example" }, headers: { origin: baseURL }, maxRedirects: 0 });
  expect(bot.headers().location).toBe(`/join/${open.id}?error=refused`);
  // From another site: refused before anything is read.
  const forged = await page.request.post(`/join/${open.id}/submit`, { form: { email: "forged@example.com" }, headers: { origin: "https://evil.example" }, maxRedirects: 0 });
  expect(forged.status()).toBe(403);
  expect(await signupsOf(open.id)).toHaveLength(0);
});

test("on a phone: the form and the result fit the screen; no axe violations", async ({ browser }) => {
  const waitlist = await openWaitlist({ fields: [{ label: "What do you build?", type: "text", required: false }] });
  const context = await browser.newContext({ baseURL, viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto(`/join/${waitlist.id}`);
  const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  expect(await fits()).toBe(true);
  await expectNoAxeViolations(page, "join form", { tags: SWEEP_TAGS });
  await joinThroughForm(page, `phone.${unique("p").replace(/\W/g, "")}@example.com`);
  expect(await fits()).toBe(true);
  await expectNoAxeViolations(page, "joined page", { tags: SWEEP_TAGS });
  await context.close();
});
