import { parse } from "csv-parse/sync";
import { expect, test } from "@playwright/test";
import type { Waitlist } from "@/db/schema";
import { filterToApiParams } from "@/lib/domain/signups/filter";
import { createFixtureWaitlist, createKey, emailsOnPage, formatCount, signIn } from "../support/support";

// The dashboard and the /v1 API read the same query layer: what one shows, the other returns.

let waitlist: Waitlist;
let apiKey: string;
test.beforeAll(async () => {
  waitlist = (await createFixtureWaitlist(143)).waitlist;
  apiKey = (await createKey()).key;
});

test.beforeEach(async ({ context }) => {
  await signIn(context);
});

const OPTIONS = [undefined, true, false] as const;

/** The query of a filter: the dashboard's URL and /v1 take the same one. */
function filterQuery(verified: boolean | undefined, referral: boolean | undefined) {
  return filterToApiParams({ verified, referral }).toString();
}

type ApiSignup = { email: string; verified: boolean; referral: boolean; custom_inputs: unknown[] };

test("the counts on the page equal the number of rows /v1 returns, for every filter combination", async ({ page }) => {
  for (const verified of OPTIONS) {
    for (const referral of OPTIONS) {
      const query = filterQuery(verified, referral);
      const response = await page.request.get(`/v1/waitlist/${waitlist.id}/signup${query ? `?${query}` : ""}`, { headers: { authorization: `Bearer ${apiKey}` } });
      expect(response.status()).toBe(200);
      const rows = (await response.json()) as ApiSignup[];
      await page.goto(`/waitlists/${waitlist.id}${query ? `?${query}` : ""}`);
      await expect(page.getByTestId("figure-total"), query).toHaveText(formatCount(rows.length));
      await expect(page.getByTestId("figure-verified"), query).toHaveText(formatCount(rows.filter((row) => row.verified).length));
      await expect(page.getByTestId("figure-referral"), query).toHaveText(formatCount(rows.filter((row) => row.referral).length));
      await expect(page.getByTestId("showing"), query).toContainText(`of ${formatCount(rows.length)}`);
    }
  }
});

test("the CSV export has exactly the API's rows for the same filters", async ({ page }) => {
  for (const [verified, referral] of [[true, false], [undefined, true], [undefined, undefined]] as const) {
    const query = filterQuery(verified, referral);
    const api = (await (await page.request.get(`/v1/waitlist/${waitlist.id}/signup${query ? `?${query}` : ""}`, { headers: { authorization: `Bearer ${apiKey}` } })).json()) as ApiSignup[];
    const csv = parse(await (await page.request.get(`/waitlists/${waitlist.id}/export${query ? `?${query}` : ""}`)).text(), { columns: true }) as Record<string, string>[];
    expect(
      csv.map((row) => ({ email: row.email, verified: row.verified === "true", referral: row.referral === "true", custom_inputs: JSON.parse(row.custom_inputs!) as unknown[] })),
      query,
    ).toEqual(api);
  }
});

test("the API URL shown on the page returns the rows on screen", async ({ page }) => {
  await page.goto(`/waitlists/${waitlist.id}?verified=true&referral=false&sort=email&dir=asc&page=2`);
  await page.getByText("Same data from the API").click();
  const url = (await page.getByTestId("api-url").textContent())!;
  const response = await page.request.get(url, { headers: { authorization: `Bearer ${apiKey}` } });
  expect(response.status()).toBe(200);
  const api = (await response.json()) as ApiSignup[];
  const onScreen = await emailsOnPage(page);
  expect(onScreen.length).toBeGreaterThan(0);
  const apiEmails = new Set(api.map((row) => row.email));
  for (const email of onScreen) expect(apiEmails.has(email), email).toBe(true);
  await expect(page.getByTestId("figure-total")).toHaveText(formatCount(api.length));
  expect(api.every((row) => row.verified && !row.referral)).toBe(true);
});
