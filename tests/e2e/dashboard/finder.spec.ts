import { expect, test } from "@playwright/test";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { insertSignups, signIn, unique } from "../support/support";

// The person finder in the dashboard header: which waitlists hold an address, or addresses that
// contain a text, each linking to the signup's page.

const stamp = `f${Date.now().toString(36)}`;
const person = `jane.${stamp}@acme.example`;
let first: { id: string; name: string };
let second: { id: string; name: string };
let third: { id: string; name: string };

test.beforeAll(async () => {
  first = await createWaitlist({ name: unique("Finder A"), website: "https://a.example.com" });
  second = await createWaitlist({ name: unique("Finder B"), website: "https://b.example.com" });
  third = await createWaitlist({ name: unique("Finder C"), website: "https://c.example.com" });
  const at = new Date("2026-03-04T05:06:07.089Z");
  const signup = (email: string) => ({ email, verified: true, referral: false, customInputs: [], createdAt: at });
  await insertSignups(first.id, [signup(person), signup(`someone.${stamp}@other.example`)]);
  await insertSignups(second.id, [signup(person.toUpperCase())]);
  await insertSignups(third.id, [signup(`mary.jane.${stamp}@acme.example.org`)]);
});

test.beforeEach(async ({ context }) => {
  await signIn(context);
});

test("the header search lists every waitlist holding the address, then addresses containing it", async ({ page }) => {
  await page.goto("/");
  const field = page.getByRole("searchbox", { name: /Find a person by email/ });
  await field.fill(person);
  await field.press("Enter");
  await expect(page).toHaveURL(`/find?email=${encodeURIComponent(person)}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Find a person");
  // One search box on the finder's page: its own, holding the address (the header's is left out).
  await expect(page.getByRole("searchbox")).toHaveCount(1);
  await expect(page.getByRole("searchbox", { name: "Email address or part of one" })).toHaveValue(person);

  const exact = page.getByTestId("found-exact");
  await expect(exact.locator("tbody tr")).toHaveCount(2);
  await expect(exact.getByRole("link", { name: first.name })).toBeVisible();
  await expect(exact.getByRole("link", { name: second.name })).toBeVisible();
  await expect(exact.getByRole("link", { name: person.toUpperCase(), exact: true })).toBeVisible();
  await expect(exact.getByRole("link", { name: person, exact: true })).toBeVisible();

  const containing = page.getByTestId("found-containing");
  await expect(containing.locator("tbody tr")).toHaveCount(1);
  await containing.getByRole("link", { name: `mary.jane.${stamp}@acme.example.org` }).click();
  await expect(page).toHaveURL(new RegExp(`/waitlists/${third.id}/signups/\\d+$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`mary.jane.${stamp}@acme.example.org`);
});

test("a part of an address finds every address containing it, across waitlists", async ({ page }) => {
  await page.goto(`/find?email=${stamp}`);
  await expect(page.getByTestId("found-exact")).toContainText(`No waitlist holds the address “${stamp}”.`);
  const containing = page.getByTestId("found-containing");
  await expect(containing.locator("tbody tr")).toHaveCount(4);
  await expect(containing.getByRole("link", { name: third.name })).toBeVisible();
  await expect(page.getByRole("searchbox", { name: "Email address or part of one" })).toHaveValue(stamp);
});

test("short text looks up whole addresses only, and says so; no text shows no results", async ({ page }) => {
  await page.goto("/find?email=ja");
  await expect(page.getByText("Type at least 3 characters")).toBeVisible();
  await expect(page.getByTestId("found-containing")).toHaveCount(0);
  await page.goto("/find?email=%20%20");
  await expect(page.getByTestId("found-exact")).toHaveCount(0);
});
