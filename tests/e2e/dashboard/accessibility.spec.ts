import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { DOCS_PAGES } from "@/app/docs/(guide)/pages";
import { listSignupRows } from "@/lib/domain/signups/queries";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { addEndpoint, disableEndpoint } from "@/lib/domain/webhooks/endpoints";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { expectNoAxeViolations, settled, SWEEP_TAGS } from "../support/axe";
import { createFixtureWaitlist, createKey, signIn, unique } from "../support/support";
import { insertSignups as insertAppSignups } from "../../support/insert-signups";

// Every page, in light and dark mode: no serious or critical axe violation, nothing wider than a
// 375 px phone, and a screenshot at desktop and phone width (written to the test's output folder,
// and to UI_SHOTS_DIR when it is set, for people to look at).

async function screenshot(page: Page, name: string, outputPath: (name: string) => string) {
  await page.screenshot({ path: outputPath(`${name}.png`), fullPage: true });
  const shots = process.env.UI_SHOTS_DIR;
  if (shots) {
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  }
}

const pages: { name: string; path: () => string | Promise<string>; signedIn: boolean; admin?: boolean; open?: (page: Page) => Promise<void> }[] = [];
let waitlistPath = "";
let signupPath = "";
let sourcesPath = "";
test.beforeAll(async () => {
  // 12 utm_source values, more than the facet shows: it offers a value search.
  const sources = await createWaitlist({ name: unique("Sources list"), website: "https://sources.example.com" });
  insertAppSignups(
    sources.id,
    Array.from({ length: 12 }, (_, index) => ({ email: `source.${index}@sources.example`, verified: true, referral: false, customInputs: "[]", source: { utm_source: `newsletter-${index}` } })),
  );
  sourcesPath = `/waitlists/${sources.id}`;
  const { waitlist } = await createFixtureWaitlist(60);
  waitlistPath = `/waitlists/${waitlist.id}`;
  signupPath = `${waitlistPath}/signups/${(await listSignupRows({ scope: { waitlistId: waitlist.id }, offset: 1, limit: 1 }))[0]!.id}`;
});
pages.push(
  { name: "signin", path: () => "/signin?reason=revoked&next=/", signedIn: false },
  { name: "overview", path: () => "/", signedIn: true },
  { name: "waitlist", path: () => `${waitlistPath}?verified=true`, signedIn: true },
  {
    name: "waitlist-details",
    path: () => `${waitlistPath}?sort=created_at&dir=asc`,
    signedIn: true,
    open: async (page) => {
      await page.locator("tbody tr").nth(1).getByRole("link").click();
      await expect(page.getByRole("dialog")).toBeVisible();
    },
  },
  {
    name: "waitlist-empty",
    path: () => `${waitlistPath}?email_contains=nothing-matches-this`,
    signedIn: true,
    open: async (page) => {
      await page.getByText("Same data from the API").click();
    },
  },
  { name: "waitlist-segments", path: () => `${waitlistPath}?created_since=2020-01-01&input.Role=Engineer&facet=input.Company&facet_q=1`, signedIn: true },
  { name: "waitlist-source-search", path: () => `${sourcesPath}?facet=utm_source&facet_q=letter-1`, signedIn: true },
  { name: "signup", path: () => signupPath, signedIn: true },
  { name: "finder", path: () => "/find?email=ann.", signedIn: true },
  { name: "not-found", path: () => "/waitlists/00000000-0000-4000-8000-000000000000", signedIn: true },
  { name: "keys", path: () => "/keys", signedIn: true, admin: true },
  { name: "key-revoke", path: async () => `/keys/${(await createKey()).id}/revoke`, signedIn: true, admin: true },
  { name: "audit", path: () => "/audit", signedIn: true, admin: true },
  { name: "import", path: () => `${waitlistPath}/import`, signedIn: true, admin: true },
  {
    name: "waitlist-all-selected",
    path: () => waitlistPath,
    signedIn: true,
    admin: true,
    open: async (page) => {
      await page.getByLabel("Select every signup on this page").check();
      await page.getByRole("button", { name: /^Select all .* matching$/ }).click();
    },
  },
  { name: "status-confirm", path: () => `${waitlistPath}/status/invite?limit=50`, signedIn: true, admin: true },
  { name: "admin-page-for-a-viewer", path: () => "/keys", signedIn: true },
);

for (const scheme of ["light", "dark"] as const) {
  for (const entry of pages) {
    test(`${entry.name} in ${scheme} mode is accessible and fits a phone`, async ({ page, context }, testInfo) => {
      if (entry.signedIn) await signIn(context, entry.admin ? ["waitlist:admin"] : undefined);
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(await entry.path());
      await settled(page);
      await entry.open?.(page);
      await expectNoAxeViolations(page, `${entry.name} ${scheme}`, { seriousOnly: true });
      await screenshot(page, `${entry.name}-${scheme}-1280`, (name) => testInfo.outputPath(name));

      await page.setViewportSize({ width: 375, height: 800 });
      await page.goto(await entry.path());
      await settled(page);
      await entry.open?.(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, "the page itself must not scroll sideways at 375 px").toBeLessThanOrEqual(0);
      await expectNoAxeViolations(page, `${entry.name} ${scheme} 375px`, { seriousOnly: true });
      await screenshot(page, `${entry.name}-${scheme}-375`, (name) => testInfo.outputPath(name));
    });
  }
}

test("the signups table can be worked with the keyboard alone, with a visible focus ring", async ({ page, context }) => {
  await signIn(context);
  await page.goto(`${waitlistPath}?sort=created_at&dir=asc`);
  await page.getByRole("group", { name: "Verified" }).getByRole("link", { name: /^Any/ }).focus();
  // The group is one tab stop (a toolbar): the arrow keys move inside it.
  await page.keyboard.press("ArrowDown");
  const yes = page.getByRole("group", { name: "Verified" }).getByRole("link", { name: /^Yes/ });
  await expect(yes).toBeFocused();
  const outline = await yes.evaluate((element) => getComputedStyle(element).outlineStyle);
  expect(outline).toBe("solid");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(`${waitlistPath}?verified=true&dir=asc`);
  const firstEmail = page.locator("tbody tr").first().getByRole("link");
  await firstEmail.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("dialog")).toBeVisible();
  await expect(page.getByRole("dialog").getByRole("button", { name: "Close" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toBeHidden();
});

// The sweep (issue 21): every page, as an admin and as a viewer (where a viewer may go), at a desktop
// and a phone size, with no axe violation of any impact under WCAG 2.2 A/AA and axe's best practices.

const SWEEP_SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

type Role = "admin" | "viewer";
/** `exclude`: what axe cannot enter (the email preview's frame, sandbox="": its HTML is swept in branded-emails.spec.ts). */
const sweep: { name: string; path: () => string | Promise<string>; roles: readonly Role[] | "signed-out"; heading?: boolean; exclude?: string }[] = [];
let emptyPath = "";
let signupErasePath = "";
let findErasePath = "";
let deliveriesPath = "";
let endpointId = "";
test.beforeAll(async () => {
  // Issue 23's pages with something in them: a failing endpoint with deliveries, and a disabled one.
  const { waitlist: delivered, signups } = await createFixtureWaitlist(3, unique("Delivered list"));
  deliveriesPath = `/waitlists/${delivered.id}`;
  endpointId = (await addEndpoint("cli", { url: "http://127.0.0.1:9/sweep", waitlist: delivered.id })).id;
  await disableEndpoint("cli", (await addEndpoint("cli", { url: "https://hooks.example/sweep", waitlist: delivered.id })).id);
  await applyStatusAction("cli", { action: "invite", selection: { waitlistId: delivered.id, emails: signups.map((signup) => signup.email) } });
  emptyPath = `/waitlists/${(await createWaitlist({ name: unique("Empty list"), website: "https://empty.example" })).id}`;
  signupErasePath = `${signupPath}/erase`;
  findErasePath = `/find/erase?email=${encodeURIComponent((await listSignupRows({ scope: { waitlistId: waitlistPath.split("/")[2]! }, offset: 1, limit: 1 }))[0]!.email)}`;
});
const BOTH = ["admin", "viewer"] as const;
const ADMIN = ["admin"] as const;
sweep.push(
  { name: "sign-in", path: () => "/signin?next=/", roles: "signed-out" },
  { name: "overview", path: () => "/", roles: BOTH },
  { name: "new waitlist", path: () => "/waitlists/new", roles: ADMIN },
  { name: "waitlist", path: () => waitlistPath, roles: BOTH },
  { name: "waitlist, filtered", path: () => `${waitlistPath}?verified=true&created_since=2020-01-01&input.Role=Engineer`, roles: BOTH },
  { name: "waitlist, empty", path: () => emptyPath, roles: BOTH },
  { name: "signup", path: () => signupPath, roles: BOTH },
  { name: "edit", path: () => `${waitlistPath}/edit`, roles: ADMIN },
  { name: "delete", path: () => `${waitlistPath}/delete`, roles: ADMIN },
  { name: "import", path: () => `${waitlistPath}/import`, roles: ADMIN },
  { name: "find", path: () => "/find?email=ann.", roles: BOTH },
  { name: "erase signup", path: () => signupErasePath, roles: ADMIN },
  { name: "erase address", path: () => findErasePath, roles: ADMIN },
  { name: "invite the next 10", path: () => `${waitlistPath}/status/invite?verified=true&limit=10`, roles: ADMIN },
  { name: "withdraw selected rows", path: () => `${waitlistPath}/status/withdraw?ids=${signupPath.split("/").at(-1)}`, roles: ADMIN },
  { name: "keys", path: () => "/keys", roles: ADMIN },
  { name: "revoke key", path: async () => `/keys/${(await createKey()).id}/revoke`, roles: ADMIN },
  { name: "audit", path: () => "/audit", roles: ADMIN },
  { name: "webhooks", path: () => "/webhooks", roles: ADMIN },
  { name: "rotate webhook secret", path: () => `/webhooks/${endpointId}/rotate`, roles: ADMIN },
  { name: "remove webhook", path: () => `/webhooks/${endpointId}/remove`, roles: ADMIN },
  { name: "delivery log", path: () => "/deliveries", roles: ADMIN },
  { name: "waitlist deliveries", path: () => `${deliveriesPath}/deliveries`, roles: ADMIN },
  { name: "invitation email", path: () => `${deliveriesPath}/email`, roles: ADMIN, exclude: '[data-testid="preview-html"]' },
  { name: "joining", path: () => `${waitlistPath}/join`, roles: ADMIN },
  { name: "admin page for a viewer (404)", path: () => "/keys", roles: ["viewer"] },
  { name: "not found", path: () => "/waitlists/00000000-0000-4000-8000-000000000000", roles: BOTH },
  ...DOCS_PAGES.map(([href, label]) => ({ name: `docs: ${label}`, path: () => href, roles: BOTH })),
);

for (const entry of sweep) {
  for (const role of entry.roles === "signed-out" ? (["signed out"] as const) : entry.roles) {
    test(`axe sweep: ${entry.name} as ${role}, at 1440×900 and 390×844, has no violation`, async ({ page, context }) => {
      if (role !== "signed out") await signIn(context, role === "admin" ? ["waitlist:admin"] : ["waitlist:view"]);
      for (const size of SWEEP_SIZES) {
        await page.setViewportSize(size);
        await page.goto(await entry.path());
        await settled(page);
        await expectNoAxeViolations(page, `${entry.name} as ${role} at ${size.width}×${size.height}`, { tags: SWEEP_TAGS, exclude: entry.exclude });
      }
    });
  }
}
