import { expect, test } from "@playwright/test";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { createFixtureWaitlist, insertSignups, signIn, unique } from "../support/support";

test.beforeEach(async ({ context }) => {
  await signIn(context);
});

test("the overview lists every waitlist with its totals", async ({ page }) => {
  const prefix = unique("Overview");
  const busy = await createWaitlist({ name: `${prefix} busy`, website: "https://busy.example.com" });
  // Stored in the WHATWG URL serialization, as the API returns it: a bare origin gains its "/".
  const day = Date.UTC(2026, 0, 15, 12);
  await insertSignups(busy.id, [
    { email: "a@x.com", verified: true, referral: true, customInputs: [], createdAt: new Date(day - 86_400_000) },
    { email: "b@x.com", verified: true, referral: false, customInputs: [], createdAt: new Date(day) },
    { email: "c@x.com", verified: false, referral: false, customInputs: [], createdAt: new Date(day - 2 * 86_400_000) },
  ]);
  const quiet = await createWaitlist({ name: `${prefix} quiet`, website: "http://quiet.example.com" });

  await page.goto(`/?q=${encodeURIComponent(prefix)}`);
  const rows = page.locator("tbody tr");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0).locator("td")).toHaveText([`${prefix} busy`, "https://busy.example.com/ (opens in a new tab)", "3", "66.7%", "33.3%", "Jan 15, 2026"]);
  await expect(rows.nth(1).locator("td")).toHaveText([`${prefix} quiet`, "http://quiet.example.com/ (opens in a new tab)", "0", "—", "—", "None yet"]);

  const website = rows.nth(0).getByRole("link", { name: /busy\.example\.com/ });
  await expect(website).toHaveAttribute("href", "https://busy.example.com/");
  await expect(website).toHaveAttribute("target", "_blank");
  await expect(website).toHaveAttribute("rel", "noopener noreferrer");

  await rows.nth(1).getByRole("link", { name: `${prefix} quiet` }).click();
  await expect(page).toHaveURL(`/waitlists/${quiet.id}`);
  await expect(page.getByRole("heading", { level: 1, name: `${prefix} quiet` })).toBeVisible();
});

test("the overview sorts by each column and searches by name", async ({ page }) => {
  const prefix = unique("Sorting");
  const small = await createFixtureWaitlist(2, `${prefix} b-small`);
  const large = await createFixtureWaitlist(9, `${prefix} a-large`);
  await page.goto(`/?q=${encodeURIComponent(prefix)}`);
  const names = page.locator("tbody tr td:first-child");
  await expect(names).toHaveText([large.waitlist.name, small.waitlist.name]);

  // Numbers sort largest first on the first click, then the other way round.
  await page.getByRole("link", { name: /^Signups/ }).click();
  await expect(page).toHaveURL(`/?q=${encodeURIComponent(prefix).replace(/%20/g, "+")}&sort=total&dir=desc`);
  await expect(page.getByRole("columnheader", { name: /Signups/ })).toHaveAttribute("aria-sort", "descending");
  await expect(names).toHaveText([large.waitlist.name, small.waitlist.name]);
  await page.getByRole("link", { name: /^Signups/ }).click();
  await expect(page.getByRole("columnheader", { name: /Signups/ })).toHaveAttribute("aria-sort", "ascending");
  await expect(names).toHaveText([small.waitlist.name, large.waitlist.name]);

  await page.getByRole("link", { name: /^Name/ }).click();
  await expect(names).toHaveText([large.waitlist.name, small.waitlist.name]);

  const search = page.getByRole("searchbox", { name: "Search by name" });
  await search.fill(`${prefix} B-SMALL`);
  await expect(names).toHaveText([small.waitlist.name]);
  await expect(page).toHaveURL(/q=/);
  await search.fill(`${prefix} nothing like this`);
  await expect(page.getByText("No waitlist matches this search.")).toBeVisible();
  await page.getByRole("link", { name: "Clear search" }).click();
  await expect(page).toHaveURL("/");
});
