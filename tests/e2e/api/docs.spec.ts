import { expect, test } from "@playwright/test";
import { Contract } from "../support/api-contract";

test.describe("the API reference without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("/docs/api renders every operation folded, the reads' errors and curl examples from the OpenAPI document", async ({ page, request }) => {
    const contract = await Contract.load(request);
    const response = await page.goto("/docs/api");
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Waitlist API reference");
    // Inside the docs' frame: the app's name leads back, every docs page is one click away, and the reference is the main landmark.
    const frame = page.getByRole("navigation", { name: "Documentation" });
    await expect(frame.getByRole("link", { name: "Waitlist Admin" })).toHaveAttribute("href", "/");
    await expect(frame.getByRole("link", { name: "Using the API" })).toBeVisible();
    await expect(page.getByRole("main").getByRole("heading", { level: 1 })).toBeVisible();
    // Keys come from the dashboard's Keys page as well as the CLI.
    await expect(page.getByText("API keys page (/keys").first()).toBeVisible();
    // Folded, the page is a list of short operations: parameters, responses, examples and objects open
    // on demand (natively, without JavaScript). Every operation of the document has its section.
    await page.setViewportSize({ width: 1440, height: 900 });
    const summaries = Object.values(contract.document.paths).flatMap((item) => Object.values(item as Record<string, { summary?: string }>).flatMap((operation) => (operation.summary ? [operation.summary] : [])));
    expect(summaries.length).toBeGreaterThanOrEqual(8);
    for (const summary of summaries) expect((await page.getByRole("region", { name: summary, exact: true }).boundingBox())?.height, summary).toBeLessThan(800);
    for (const summary of await page.locator("summary").all()) await summary.click();
    for (const summary of ["Get all waitlists", "Get one waitlist", "Get all signups"]) {
      const section = page.getByRole("region", { name: summary });
      await expect(section).toBeVisible();
      await expect(section.locator("pre").filter({ hasText: "curl" }).first()).toBeVisible();
      for (const status of ["200", "400", "401", "403", "500"]) await expect(section.getByRole("cell", { name: status, exact: true })).toBeVisible();
    }
    await expect(page.getByRole("region", { name: "Get all signups" }).locator("pre").filter({ hasText: "grep -i '^link:'" })).toBeVisible();
    const signups = page.getByRole("region", { name: "Get all signups" });
    for (const name of ["verified", "created_since", "created_until", "email", "email_contains", "fields", "inputs"]) await expect(signups.getByRole("cell", { name, exact: true })).toBeVisible();
    await expect(signups.getByRole("cell", { name: "string (date) or string (date-time)" }).first()).toBeVisible();
    await expect(signups.getByRole("cell").filter({ hasText: "input.<label>=<value>" }).first()).toBeVisible();
    await expect(signups.getByText("array of Signup or SignupWithFields")).toBeVisible();
    await expect(signups.locator("pre").filter({ hasText: "input.company=Acme&input.role=Engineer&fields=email,created_at,id" })).toBeVisible();
    // The setup block points at the server the page was served from.
    await expect(page.locator("pre").filter({ hasText: `WAITLIST_URL="${new URL(page.url()).origin}"` })).toBeVisible();
    // Problem `type` links land on their entry.
    const codes = (contract.document.components.schemas.Problem as { properties: { code: { enum: string[] } } }).properties.code.enum;
    expect(codes).toContain("not_found");
    for (const code of codes) await expect(page.locator(`#error-${code}`)).toBeVisible();
    await expect(page.getByRole("link", { name: "/v1/openapi.json" })).toHaveAttribute("href", "/v1/openapi.json");
  });
});
