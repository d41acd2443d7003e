import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { listAudit } from "@/lib/domain/audit/log";
import { createApiKey } from "@/lib/domain/keys/queries";
import { createSession } from "@/lib/domain/sessions";
import { listSignupRows } from "@/lib/domain/signups/queries";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { SESSION_COOKIE } from "@/lib/dashboard/session-cookie";
import { baseURL, counts, forbidDialogs, insertSignups, signIn, unique } from "../support/support";
import { startTestServer } from "../support/test-server";

// Imports from the browser (issue 12, item 4): the file goes up as the body of one POST, is
// imported by the CLI's importSignups on a thread, and the page shows the progress and the outcome.

const newWaitlist = async () => await createWaitlist({ name: unique("Upload list"), website: "https://upload.example" });

async function upload(page: Page, waitlistId: string, name: string, content: string) {
  await page.goto(`/waitlists/${waitlistId}/import`);
  await page.getByLabel("File (.csv, .json, .ndjson)").setInputFiles({ name, mimeType: "text/plain", buffer: Buffer.from(content) });
  const response = page.waitForResponse((each) => each.url().includes("/import/upload"));
  await page.getByRole("button", { name: "Import" }).click();
  return response;
}

test("an admin uploads a CSV: progress to the end, the result, and the rows in the list with their created_at", async ({ page, context }) => {
  forbidDialogs(page);
  const admin = await signIn(context, ["waitlist:admin"]);
  const waitlist = await newWaitlist();
  await page.goto(`/waitlists/${waitlist.id}`);
  await page.getByRole("link", { name: "Import…" }).click();
  await expect(page.getByRole("heading", { name: `Import signups into ${waitlist.name}` })).toBeVisible();

  const csv = "email,verified,referral,created_at,company\nada@upload.example,true,no,2025-03-04T05:06:07.089Z,Acme\ngrace@upload.example,1,0,2025-03-05,\n";
  const response = await upload(page, waitlist.id, "partners.csv", csv);
  // The route is not behind proxy.ts (which would buffer the body in memory): no page CSP with a nonce.
  expect((await response.allHeaders())["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
  await expect(page.getByTestId("import-result")).toContainText("Imported 2 · skipped 0 duplicates");
  const events = (await response.text()).trim().split("\n").map((line) => JSON.parse(line) as { type: string; phase?: string });
  expect(events[0]).toMatchObject({ type: "received", bytes: Buffer.byteLength(csv) });
  expect(events.map((event) => event.phase ?? event.type)).toEqual(expect.arrayContaining(["importing", "deriving"]));
  expect(events.at(-1)).toEqual({ type: "done", imported: 2, skipped_duplicates: 0 });

  const rows = await listSignupRows({ scope: { waitlistId: waitlist.id }, sort: "created_at", direction: "asc", offset: 0, limit: 10 });
  expect(rows.map((row) => [row.email, row.createdAt.toISOString()])).toEqual([
    ["ada@upload.example", "2025-03-04T05:06:07.089Z"],
    ["grace@upload.example", "2025-03-05T00:00:00.000Z"],
  ]);
  await page.getByRole("link", { name: "Back to the list" }).click();
  await expect(page).toHaveURL(new RegExp(`/waitlists/${waitlist.id}$`));
  const table = page.getByRole("table");
  await expect(table.locator("tbody tr")).toHaveCount(2);
  await expect(table.locator('time[datetime="2025-03-04T05:06:07.089Z"]')).toBeVisible();
  await expect(table).toContainText("ada@upload.example");

  const audit = await listAudit({ action: "signups.import", actor: admin.id, limit: 5 });
  expect(audit).toHaveLength(1);
  expect(audit[0]).toMatchObject({ actor: admin.name, actorKeyId: admin.id, target: waitlist.id, summary: "imported 2 signups, skipped 0 duplicates (a CSV file)" });
  expect(JSON.stringify(audit[0])).not.toMatch(/upload\.example|Acme|partners/);
});

test("a file with invalid rows shows the first ten with their line numbers, and nothing is imported", async ({ page, context }) => {
  await signIn(context, ["waitlist:admin"]);
  const waitlist = await newWaitlist();
  const lines = ["ok@upload.example"];
  for (let n = 1; n <= 12; n++) lines.push(`not-an-email-${n}`);
  await upload(page, waitlist.id, "broken.ndjson", `${lines.map((email) => JSON.stringify({ email })).join("\n")}\n`);
  const errors = page.getByTestId("import-errors");
  await expect(errors).toContainText("12 invalid rows: nothing was imported.");
  await expect(errors.locator("li")).toHaveCount(10);
  await expect(errors.locator("li").first()).toHaveText('line 2: invalid email "not-an-email-1"');
  await expect(errors.locator("li").last()).toHaveText('line 11: invalid email "not-an-email-10"');
  await expect(errors).toContainText("and 2 more.");
  expect((await counts({ waitlistId: waitlist.id })).total).toBe(0);
});

for (const levels of [1_000, 100_000]) {
  test(`custom_inputs nested ${levels} levels deep: one invalid row with its line, nothing imported`, async ({ page, context }) => {
    await signIn(context, ["waitlist:admin"]);
    const waitlist = await newWaitlist();
    const deep = `${"[".repeat(levels)}${"]".repeat(levels)}`;
    const response = await upload(page, waitlist.id, "deep.ndjson", `{"email":"ok@upload.example"}\n{"email":"deep@upload.example","custom_inputs":[{"label":"deep","value":${deep}}]}\n`);
    const errors = page.getByTestId("import-errors");
    await expect(errors).toContainText("1 invalid row: nothing was imported.");
    await expect(errors.locator("li")).toHaveText(["line 2: custom_inputs nests more than 32 levels of arrays and objects"]);
    expect((await response.text()).trim().split("\n").at(-1)).toBe(
      JSON.stringify({ type: "invalid", invalid: 1, errors: ["line 2: custom_inputs nests more than 32 levels of arrays and objects"] }),
    );
    expect((await counts({ waitlistId: waitlist.id })).total).toBe(0);
  });
}

test("duplicates (already in the waitlist, or repeated in the file) are skipped and counted", async ({ page, context }) => {
  await signIn(context, ["waitlist:admin"]);
  const waitlist = await newWaitlist();
  await insertSignups(waitlist.id, [{ email: "known@upload.example", verified: false, referral: false, customInputs: [], createdAt: new Date("2025-01-01T00:00:00Z") }]);
  const json = JSON.stringify([{ email: "Known@Upload.example" }, { email: "new@upload.example", verified: true }, { email: "NEW@upload.example" }]);
  await upload(page, waitlist.id, "more.json", json);
  await expect(page.getByTestId("import-result")).toContainText("Imported 1 · skipped 2 duplicates");
  expect((await counts({ waitlistId: waitlist.id })).total).toBe(2);
});

test("a view session sees no upload control, and its forged upload is refused with 403", async ({ page, context }) => {
  await signIn(context, ["waitlist:view"]);
  const waitlist = await newWaitlist();
  await page.goto(`/waitlists/${waitlist.id}`);
  await expect(page.getByRole("heading", { name: waitlist.name })).toBeVisible();
  await expect(page.getByRole("link", { name: "Import…" })).toHaveCount(0);
  expect((await page.goto(`/waitlists/${waitlist.id}/import`))!.status()).toBe(404);
  await expect(page.locator('input[type="file"]')).toHaveCount(0);

  const forged = await page.request.post(`/waitlists/${waitlist.id}/import/upload?name=x.csv`, { headers: { origin: baseURL }, data: "email\nforged@upload.example\n" });
  expect(forged.status()).toBe(403);
  expect(await forged.text()).toContain("does not carry the waitlist:admin role");
  expect((await counts({ waitlistId: waitlist.id })).total).toBe(0);
});

test("a cross-origin upload with an admin session is refused with 403", async ({ page, context }) => {
  await signIn(context, ["waitlist:admin"]);
  const waitlist = await newWaitlist();
  const response = await page.request.post(`/waitlists/${waitlist.id}/import/upload?name=x.csv`, { headers: { origin: "https://evil.example" }, data: "email\nforeign@upload.example\n" });
  expect(response.status()).toBe(403);
  expect(await response.text()).toContain("the request comes from https://evil.example");
  expect((await counts({ waitlistId: waitlist.id })).total).toBe(0);
});

test.describe("a server with a 4 KB limit", () => {
  const temporaryFolder = mkdtempSync(join(tmpdir(), "waitlist-upload-tmp-"));
  let server: Awaited<ReturnType<typeof startTestServer>>;
  test.beforeAll(async () => {
    server = await startTestServer({ portOffset: 12, name: "import-upload", env: { IMPORT_MAX_BYTES: "4096", TMPDIR: temporaryFolder, WEB_CONCURRENCY: "2" } });
  });
  test.afterAll(async () => {
    await server?.stop();
    rmSync(temporaryFolder, { recursive: true, force: true });
  });

  test("refuses a larger file with a clear message, streamed or announced, and leaves no temporary file", async ({ page, context }) => {
    const db = server.db();
    const waitlist = await createWaitlist({ name: "Limited", website: "https://limit.example" }, db);
    const { token } = await createSession((await createApiKey({ name: "limit admin", roles: ["waitlist:admin"] }, db)).id, db);
    await context.addCookies([{ name: SESSION_COOKIE, value: token, url: server.url, httpOnly: true, sameSite: "Lax" }]);
    const big = `email\n${Array.from({ length: 400 }, (_, n) => `person${n}@limit.example`).join("\n")}\n`;
    expect(big.length).toBeGreaterThan(4096);

    // In the browser: said before anything is sent.
    await page.goto(`${server.url}/waitlists/${waitlist.id}/import`);
    await page.getByLabel("File (.csv, .json, .ndjson)").setInputFiles({ name: "big.csv", mimeType: "text/csv", buffer: Buffer.from(big) });
    await page.getByRole("button", { name: "Import" }).click();
    await expect(page.getByTestId("import-refused")).toContainText("an import may have at most 4 KB. Nothing was imported.");

    const url = `${server.url}/waitlists/${waitlist.id}/import/upload?name=big.csv`;
    const headers = { cookie: `${SESSION_COOKIE}=${token}`, origin: server.url };
    // Announced by Content-Length: refused before the body is read.
    const announced = await fetch(url, { method: "POST", headers, body: big });
    expect(announced.status).toBe(413);
    expect(await announced.text()).toContain("The file is larger than the 4 KB an import may have (IMPORT_MAX_BYTES). Nothing was imported.");
    // Chunked, without a length: counted as it arrives, refused once past the limit.
    const chunks = [big.slice(0, 3000), big.slice(3000)];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(next));
      },
    });
    const streamed = await fetch(url, { method: "POST", headers, body, duplex: "half" } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(await streamed.text()).toContain("IMPORT_MAX_BYTES");

    // A file within the limit goes through on the same server, and its temporary file goes too.
    const small = await fetch(url.replace("big.csv", "small.csv"), { method: "POST", headers, body: "email\nsmall@limit.example\n" });
    expect(small.status).toBe(200);
    expect((await small.text()).trim().split("\n").at(-1)).toBe(JSON.stringify({ type: "done", imported: 1, skipped_duplicates: 0 }));
    expect(readdirSync(temporaryFolder).filter((name) => name.startsWith("waitlist-import-"))).toEqual([]);
    expect((await listSignupRows({ scope: { waitlistId: waitlist.id }, offset: 0, limit: 10 }, db)).map((row) => row.email)).toEqual(["small@limit.example"]);
  });
});

test("before importing, the page shows which column becomes what and the first rows; the template downloads; the one progress bar never goes back", async ({ page, context }) => {
  await signIn(context, ["waitlist:admin"]);
  const waitlist = await newWaitlist();
  await page.goto(`/waitlists/${waitlist.id}/import`);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download a template CSV" }).click()]);
  expect(download.suggestedFilename()).toBe("signups-template.csv");
  const template = Buffer.concat(await (await download.createReadStream()).toArray()).toString("utf8");
  expect(template.split("\n")[0]).toBe("email,verified,referral,created_at,status,status_changed_at,custom_inputs,company,role");

  const rows = Array.from({ length: 40_000 }, (_, index) => `person.${index}@bar.example,${index % 2 === 0},no,2025-01-01,Company ${index % 7}`);
  const csv = `Email,verified,referral,created_at,company\n${rows.join("\n")}\n`;
  await page.getByLabel("File (.csv, .json, .ndjson)").setInputFiles({ name: "people.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  const mapping = page.getByTestId("import-mapping");
  await expect(mapping.getByRole("row").nth(1)).toHaveText(/Becomesemailverifiedreferralcreated_atcustom input “company”/);
  await expect(mapping.locator("tbody tr")).toHaveCount(5);
  await expect(mapping.locator("tbody tr").first()).toContainText("person.0@bar.example");

  // Every value the bar shows, as it changes.
  await page.evaluate(() => {
    const seen: number[] = [];
    (window as unknown as { seen: number[] }).seen = seen;
    new MutationObserver(() => {
      const bar = document.querySelector('[role="progressbar"][aria-label="Import progress"]');
      const value = bar ? Number(bar.getAttribute("aria-valuenow")) : undefined;
      if (value !== undefined && value !== seen.at(-1)) seen.push(value);
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-valuenow"] });
  });
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByTestId("import-result")).toContainText("Imported 40,000 · skipped 0 duplicates", { timeout: 30_000 });
  await expect(page.getByTestId("import-preview")).toHaveCount(0);
  const seen = await page.evaluate(() => (window as unknown as { seen: number[] }).seen);
  expect(seen.length, `values seen: ${seen.join(", ")}`).toBeGreaterThan(1);
  expect(seen).toEqual([...seen].sort((a, b) => a - b));
  expect(seen.at(-1)).toBeGreaterThanOrEqual(90);
});
