import { expect, test, type Page } from "@playwright/test";
import { listSignupRows } from "@/lib/domain/signups/queries";
import { createFixtureWaitlist, createKey, signIn } from "../support/support";

// One way to confirm every destructive action (components/confirm-form.tsx), one danger style for
// its button and for the way into it, and breadcrumbs back from every page below the overview.

let waitlistPath = "";
let signupPath = "";
let email = "";
test.beforeAll(async () => {
  const { waitlist } = await createFixtureWaitlist(5);
  waitlistPath = `/waitlists/${waitlist.id}`;
  const row = (await listSignupRows({ scope: { waitlistId: waitlist.id }, offset: 0, limit: 1 }))[0]!;
  signupPath = `${waitlistPath}/signups/${row.id}`;
  email = row.email;
});

test.beforeEach(async ({ context }) => {
  await signIn(context, ["waitlist:admin"]);
});

const styleOf = (page: Page, name: string | RegExp, role: "button" | "link") =>
  page
    .getByRole(role, { name, exact: typeof name === "string" })
    .first()
    .evaluate((element) => {
      const style = getComputedStyle(element);
      return { background: style.backgroundColor, color: style.color, border: style.borderColor, radius: style.borderRadius };
    });

test("every destructive action is confirmed on its own page with the same red button and the same Cancel", async ({ page }) => {
  const pages = [
    { path: async () => `/keys/${(await createKey()).id}/revoke`, button: "Revoke key", typed: false },
    { path: () => `${signupPath}/erase`, button: "Erase this signup", typed: false },
    { path: () => `/find/erase?email=${encodeURIComponent(email)}`, button: "Erase 1 signup", typed: true },
    { path: () => `${waitlistPath}/delete`, button: "Delete this waitlist and its signups", typed: true },
  ];
  const buttons = [];
  const cancels = [];
  for (const entry of pages) {
    await page.goto(await entry.path());
    await expect(page.getByRole("button", { name: entry.button })).toBeVisible();
    buttons.push(await styleOf(page, entry.button, "button"));
    cancels.push(await styleOf(page, "Cancel", "link"));
    // Those that take more than one thing (every waitlist's copy of an address, a whole waitlist) ask for it typed.
    await expect(page.locator('input[name="confirm"]'), entry.button).toHaveCount(entry.typed ? 1 : 0);
  }
  expect(new Set(buttons.map((style) => JSON.stringify(style))).size).toBe(1);
  // Red (Tailwind 4 computes lab(): a strongly positive a*), unlike Cancel.
  const [, redness] = /^lab\(\S+ (-?[\d.]+)/.exec(buttons[0]!.background) ?? [];
  expect(Number(redness), buttons[0]!.background).toBeGreaterThan(50);
  expect(cancels[0]!.background).not.toBe(buttons[0]!.background);
  expect(new Set(cancels.map((style) => JSON.stringify(style))).size).toBe(1);
});

test("the ways into those pages share one danger style", async ({ page }) => {
  const entries: [path: string, name: string | RegExp][] = [
    [signupPath, "Erase this signup…"],
    [`/find?email=${encodeURIComponent(email)}`, "Erase this address from every waitlist…"],
    [waitlistPath, "Delete…"],
  ];
  const styles = [];
  for (const [path, name] of entries) {
    await page.goto(path);
    styles.push(await styleOf(page, name, "link"));
  }
  await page.goto("/keys");
  const revoke = await styleOf(page, /^Revoke /, "link");
  expect(new Set(styles.map((style) => JSON.stringify(style))).size).toBe(1);
  expect(revoke.color).toBe(styles[0]!.color);
  expect(revoke.border).toBe(styles[0]!.border);
});

test("every page below the overview has breadcrumbs back to it", async ({ page }) => {
  const trails: [path: () => string | Promise<string>, crumbs: string[]][] = [
    [() => "/waitlists/new", ["Waitlists"]],
    [() => waitlistPath, ["Waitlists"]],
    [() => `${waitlistPath}/edit`, ["Waitlists", "Fixture list"]],
    [() => `${waitlistPath}/delete`, ["Waitlists", "Fixture list"]],
    [() => `${waitlistPath}/import`, ["Waitlists", "Fixture list"]],
    [() => signupPath, ["Waitlists", "Fixture list"]],
    [() => `${signupPath}/erase`, ["Waitlists", "Fixture list", email]],
    [() => "/find?email=x", ["Waitlists"]],
    [() => `/find/erase?email=${encodeURIComponent(email)}`, ["Waitlists", "Find a person"]],
    [() => "/keys", ["Waitlists"]],
    [async () => `/keys/${(await createKey()).id}/revoke`, ["Waitlists", "API keys"]],
    [() => "/audit", ["Waitlists"]],
  ];
  for (const [pathOf, crumbs] of trails) {
    const path = await pathOf();
    await page.goto(path);
    const links = page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link");
    const texts = await links.allTextContents();
    expect(texts.map((text, index) => (crumbs[index]!.startsWith("Fixture list") ? text.slice(0, "Fixture list".length) : text)), path).toEqual(crumbs);
    await expect(links.first()).toHaveAttribute("href", "/");
    await expect(page.getByText("← All waitlists")).toHaveCount(0);
  }
});
