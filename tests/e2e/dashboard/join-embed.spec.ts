import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { openWaitlist, signupsOf } from "../support/join-fixtures";
import { baseURL, unique } from "../support/support";

// The join page in an iframe on another origin (a tiny site on a port of its own): framed where the
// waitlist's embed origins allow it (CSP frame-ancestors, which takes precedence over X-Frame-Options),
// blocked elsewhere, and joining inside the frame works. The dashboard's pages stay unframable.

let site: Server;
let siteOrigin: string;

test.beforeAll(async () => {
  site = createServer((request, response) => {
    const src = new URL(request.url!, "http://x").searchParams.get("src") ?? "";
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(`<!doctype html><html lang="en"><title>Partner site</title><h1>Partner site</h1><iframe src="${src.replace(/"/g, "&quot;")}" title="Join" style="width:480px;height:640px;border:0"></iframe></html>`);
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => site.close(() => resolve()));
});

test("an allowed origin frames the join page and a person joins inside the frame", async ({ page }) => {
  const waitlist = await openWaitlist({ embedOrigins: [siteOrigin], challenge: true });
  const joinUrl = `${baseURL}/join/${waitlist.id}`;
  const direct = await page.request.get(joinUrl);
  expect(direct.headers()["content-security-policy"]).toContain(`frame-ancestors 'self' ${siteOrigin}`);
  // Still there for browsers without CSP 2; every browser that has it follows frame-ancestors instead.
  expect(direct.headers()["x-frame-options"]).toBe("DENY");

  await page.goto(`${siteOrigin}/?src=${encodeURIComponent(joinUrl)}`);
  const frame = page.frameLocator('iframe[title="Join"]');
  await expect(frame.getByRole("heading", { level: 1 })).toHaveText(`Join the ${waitlist.name} waitlist`);
  await expect(frame.locator('input[name="altcha"]')).toHaveValue(/.{20,}/, { timeout: 30_000 });
  await frame.getByLabel("Email address").fill(`framed.${unique("e").replace(/\W/g, "")}@example.com`);
  await frame.getByRole("button", { name: "Join the waitlist" }).click();
  await expect(frame.getByRole("heading", { level: 1 })).toHaveText("You're number 1 in line");
  expect(await signupsOf(waitlist.id)).toHaveLength(1);
});

test("another origin cannot frame it, nor any origin a dashboard page", async ({ page }) => {
  const waitlist = await openWaitlist({ embedOrigins: ["https://partner.example"] });
  const joinUrl = `${baseURL}/join/${waitlist.id}`;
  const direct = await page.request.get(joinUrl);
  expect(direct.headers()["content-security-policy"]).toContain("frame-ancestors 'self' https://partner.example");
  const blocked = page.waitForEvent("console", (message) => message.text().includes("frame-ancestors"));
  await page.goto(`${siteOrigin}/?src=${encodeURIComponent(joinUrl)}`);
  await blocked;
  await expect(page.frameLocator('iframe[title="Join"]').getByLabel("Email address")).toHaveCount(0);

  const dashboard = await page.request.get(`${baseURL}/signin`);
  expect(dashboard.headers()["x-frame-options"]).toBe("DENY");
  expect(dashboard.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
});
