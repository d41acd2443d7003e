import { expect, test } from "@playwright/test";
import { createApiKey, VIEW_ROLE } from "@/lib/domain/keys/queries";
import { SESSION_COOKIE } from "@/lib/dashboard/session-cookie";
import { rawRequest, type RawResponse } from "../support/raw-http";
import { startTestServer, type TestServer } from "../support/test-server";

// A server action (signIn, signOut: a POST to a page with a Next-Action header, or a form post) from
// another site or from `Origin: null` is refused with a 403 and a line of plain text before Next.js
// sees it, as every dashboard write from another site is (lib/server/refuse.ts). Next.js alone
// answers 500 and logs "Invalid Server Actions request". A server of its own, to read its stderr.

let server: TestServer;
test.beforeAll(async () => {
  server = await startTestServer({ portOffset: 50, name: "cross-site-actions" });
});
test.afterAll(async () => {
  await server?.stop();
});

/** A sign-in as the browser's form sends it (the form's action id, its encoded body), captured from a real sign-in. */
let signInRequest: { action: string; contentType: string; body: Buffer; tree: string | undefined };

test("a same-origin sign-in works, from the form in a real browser", async ({ page }) => {
  const key = await createApiKey({ name: "cross-site sign-in", roles: [VIEW_ROLE] }, server.db());
  await page.goto(`${server.url}/signin`);
  await page.getByLabel("API key").fill(key.key);
  const [request] = await Promise.all([page.waitForRequest((sent) => sent.method() === "POST" && new URL(sent.url()).pathname === "/signin"), page.getByRole("button", { name: "Sign in" }).click()]);
  await expect(page).toHaveURL(`${server.url}/`);
  expect((await page.context().cookies()).map((cookie) => cookie.name)).toContain(SESSION_COOKIE);
  const headers = await request.allHeaders();
  expect(headers["next-action"]).toBeTruthy();
  signInRequest = { action: headers["next-action"]!, contentType: headers["content-type"]!, body: request.postDataBuffer()!, tree: headers["next-router-state-tree"] };
});

function post(path: string, headers: Record<string, string | undefined>, body: Buffer): Promise<RawResponse> {
  const lines = Object.entries({ Host: `127.0.0.1:${server.port}`, ...headers, "Content-Length": String(body.length), Connection: "close" })
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}: ${value}`);
  return rawRequest(server.port, { head: `POST ${path} HTTP/1.1\r\n${lines.join("\r\n")}\r\n\r\n`, body });
}

function expectRefused(response: RawResponse, label: string) {
  expect(response.status, label).toBe(403);
  expect(response.headers.get("content-type"), label).toEqual(["text/plain; charset=utf-8"]);
  const text = response.body.toString("utf8");
  expect(text, label).toMatch(/^Refused: .+\. Dashboard writes are accepted only from the dashboard's own pages\.\n$/);
  expect(text.length, label).toBeLessThan(300);
  expect(response.headers.get("set-cookie"), label).toBeUndefined();
}

test("the same sign-in from another site, from Origin: null or from no site at all gets 403, never 500", async () => {
  test.skip(!signInRequest, "needs the sign-in captured by the previous test");
  const action = (origin: string | undefined, extra: Record<string, string> = {}) =>
    post("/signin", { Origin: origin, "Next-Action": signInRequest.action, "Content-Type": signInRequest.contentType, "Next-Router-State-Tree": signInRequest.tree, Accept: "text/x-component", ...extra }, signInRequest.body);

  const evil = await action("https://evil.example");
  expectRefused(evil, "Origin: https://evil.example");
  expect(evil.body.toString()).toContain("https://evil.example");
  expectRefused(await action("null"), "Origin: null");
  // A same-site port or scheme is another origin too.
  expectRefused(await action(`http://127.0.0.1:${server.port + 1}`), "another port");
  // Neither Origin nor Sec-Fetch-Site: no browser sends that.
  expectRefused(await action(undefined), "no Origin");
  expectRefused(await action(undefined, { "Sec-Fetch-Site": "cross-site" }), "Sec-Fetch-Site: cross-site");

  // signOut, posted to any page; a form post without JavaScript (multipart, no Next-Action header).
  expectRefused(await post("/", { Origin: "https://evil.example", "Next-Action": "0".repeat(42), "Content-Type": "text/plain;charset=UTF-8" }, Buffer.from("[]")), "signOut");
  const form = Buffer.from('--x\r\nContent-Disposition: form-data; name="key"\r\n\r\nwl_nothing\r\n--x--\r\n');
  expectRefused(await post("/signin", { Origin: "null", "Content-Type": "multipart/form-data; boundary=x" }, form), "form post");

  // The captured request itself, from our own origin, still signs in.
  const same = await action(server.url);
  expect(same.status).toBe(200);
  // A server action's redirect, as Next.js tells its client router.
  expect(same.headers.get("x-action-redirect")?.[0]).toMatch(/^\/(;|$)/);
  expect(same.headers.get("set-cookie")?.join("\n")).toContain(`${SESSION_COOKIE}=`);
});

test("refused actions leave nothing in the error log", async () => {
  test.skip(!signInRequest, "needs the requests of the previous tests");
  // Give the server a moment to write anything it would write.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const errors = server.stderr.filter((line) => line.trim() !== "");
  expect(errors).toEqual([]);
  // The request log has each refusal as a 403, at level info.
  const refused = server.stdout.filter((line) => line.includes('"status":403'));
  expect(refused.length).toBeGreaterThanOrEqual(7);
  for (const line of refused) expect(JSON.parse(line)).toMatchObject({ level: "info", method: "POST" });
});
