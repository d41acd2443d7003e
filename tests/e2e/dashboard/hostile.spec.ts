import { expect, test } from "@playwright/test";
import { getDb } from "@/db/client";
import { insertSignups, signIn, unique } from "../support/support";

test("names, websites, emails and custom inputs from users are rendered inert", async ({ page, context }) => {
  await signIn(context);
  const marker = unique("hostile");
  const name = `<script>alert("name")</script><img src=x onerror=alert("img")> ${marker}`;
  // The query layer only accepts http(s) websites, so the hostile one is written as another writer could have.
  const id = crypto.randomUUID();
  getDb().$client.prepare("INSERT INTO waitlists (id, name, website, created_at) VALUES (?, ?, ?, ?)").run(id, name, "javascript:alert(1)", Date.now());
  const email = `"<img src=x onerror=alert('email')>"@example.com`;
  await insertSignups(id, [
    {
      email,
      verified: true,
      referral: false,
      customInputs: [{ label: "<script>alert('label')</script>", value: "<b onmouseover=alert('value')>bold</b>" }, { "<svg onload=alert(1)>": { nested: "</pre><script>alert(2)</script>" } }],
      createdAt: new Date(),
    },
  ]);
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });

  await page.goto(`/?q=${encodeURIComponent(marker)}`);
  const row = page.locator("tbody tr").first();
  await expect(row.getByRole("link", { name })).toBeVisible();
  await expect(row.locator("td").nth(1)).toHaveText("javascript:alert(1)");
  await expect(row.locator("td").nth(1).locator("a")).toHaveCount(0);
  await expect(page.locator('a[href^="javascript:"]')).toHaveCount(0);

  await row.getByRole("link", { name }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  await expect(page.locator("main").getByText("javascript:alert(1)")).toBeVisible();
  await expect(page.locator('a[href^="javascript:"]')).toHaveCount(0);
  await expect(page.locator("main img")).toHaveCount(0);
  await page.getByRole("link", { name: email }).click();
  const details = page.getByRole("dialog");
  await expect(details.locator("dl").last().locator("dt")).toHaveText(["<script>alert('label')</script>", "<svg onload=alert(1)>"]);
  await expect(details.locator("dl").last().locator("dd").first()).toHaveText("<b onmouseover=alert('value')>bold</b>");
  await expect(details.locator("b, svg, script")).toHaveCount(0);
  await details.locator("dd").first().hover();
  expect(dialogs).toEqual([]);
});
