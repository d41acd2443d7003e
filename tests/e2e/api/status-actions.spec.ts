import { expect, test, type APIRequestContext } from "@playwright/test";
import { createApiKey } from "@/lib/domain/keys/queries";
import { Contract, expectProblem, type PathTemplate } from "../support/api-contract";
import { bearer, waitlistWithSignups } from "../support/api-fixtures";
import { rawSql } from "../support/raw-sql";

// POST /v1/waitlist/{id}/signup/invite|reject|withdraw|restore|complete against the real server:
// every answer checked against the served OpenAPI document, each error, the role, the cross-site
// refusal, idempotency, and the status filter and fields of GET.

interface Result {
  changed: number;
  skipped: number;
  signups: { email: string; verified: boolean; referral: boolean; custom_inputs: unknown[]; status: string }[];
}

let contract: Contract;
let admin: Record<string, string>;
let viewer: Record<string, string>;

test.beforeAll(async ({ request }) => {
  contract = await Contract.load(request);
  admin = bearer((await createApiKey({ name: "status actions admin", roles: ["waitlist:admin"] })).key);
  viewer = bearer((await createApiKey({ name: "status actions viewer", roles: ["waitlist:view"] })).key);
});

const template = (action: string) => `/waitlist/{id}/signup/${action}` as PathTemplate;
const eventCount = (waitlistId: string) => rawSql.value<number>("SELECT count(*) AS n FROM events WHERE waitlist_id = ?", waitlistId);

async function act(request: APIRequestContext, action: string, waitlistId: string, query: string, options: { body?: unknown; headers?: Record<string, string> } = {}) {
  return request.post(`/v1/waitlist/${waitlistId}/signup/${action}${query ? `?${query}` : ""}`, {
    headers: { ...admin, ...options.headers },
    ...(options.body !== undefined ? { data: options.body } : {}),
  });
}

test("invite the oldest matching, then list them with status=invited and the new fields; the default object keeps its four fields", async ({ request }) => {
  const { waitlist, seeds } = await waitlistWithSignups(30);
  const response = await act(request, "invite", waitlist.id, "verified=true&limit=4");
  expect(response.status()).toBe(200);
  const result = await contract.json<Result>(response, template("invite"));
  const oldestVerified = seeds.filter((seed) => seed.verified).slice(0, 4);
  expect(result).toMatchObject({ changed: 4, skipped: 0 });
  expect(result.signups.map((signup) => [signup.email, signup.status])).toEqual(oldestVerified.map((seed) => [seed.email, "invited"]));
  expect(Object.keys(result.signups[0]!)).toEqual(["email", "verified", "referral", "custom_inputs", "status"]);
  expect(await eventCount(waitlist.id)).toBe(4);

  const listed = await request.get(`/v1/waitlist/${waitlist.id}/signup?status=invited&fields=email,status,status_changed_at`, { headers: viewer });
  const items = await contract.json<{ email: string; status: string; status_changed_at: string }[]>(listed, "/waitlist/{id}/signup");
  expect(items.map((item) => item.email)).toEqual(oldestVerified.map((seed) => seed.email));
  for (const item of items) expect(Date.parse(item.status_changed_at)).toBeGreaterThan(Date.now() - 60_000);
  const waiting = await request.get(`/v1/waitlist/${waitlist.id}/signup?status=waiting,rejected`, { headers: viewer });
  const all = await contract.json<Record<string, unknown>[]>(waiting, "/waitlist/{id}/signup");
  expect(all).toHaveLength(26);
  expect(Object.keys(all[0]!)).toEqual(["email", "verified", "referral", "custom_inputs"]);
});

test("by addresses: skipped counted, then withdraw, reject, restore and complete (complete needs no limit)", async ({ request }) => {
  const { waitlist, seeds } = await waitlistWithSignups(6);
  const [a, b, c] = seeds.map((seed) => seed.email) as [string, string, string];
  const invited = await contract.json<Result>(await act(request, "invite", waitlist.id, "", { body: { emails: [a, b.toUpperCase(), "nobody@example.com"] } }), template("invite"));
  expect(invited).toMatchObject({ changed: 2, skipped: 1 });
  expect(await contract.json<Result>(await act(request, "withdraw", waitlist.id, "", { body: { emails: [b] } }), template("withdraw"))).toMatchObject({ changed: 1 });
  expect(await contract.json<Result>(await act(request, "reject", waitlist.id, "limit=1", {}), template("reject"))).toMatchObject({ changed: 1 });
  expect(await contract.json<Result>(await act(request, "restore", waitlist.id, "limit=10&status=rejected"), template("restore"))).toMatchObject({ changed: 1 });
  const completed = await contract.json<Result>(await act(request, "complete", waitlist.id, "status=invited"), template("complete"));
  expect(completed.signups.map((signup) => [signup.email, signup.status])).toEqual([[a, "completed"]]);
  // All listed addresses in another state: 409 naming both states; none on the list: 404.
  const conflict = await expectProblem(contract, await act(request, "complete", waitlist.id, "", { body: { emails: [c] } }), template("complete"), { status: 409, code: "conflict", parameter: "emails" });
  expect(conflict.detail).toBe("cannot complete a signup that is waiting: only an invited signup can become completed");
  await expectProblem(contract, await act(request, "invite", waitlist.id, "", { body: { emails: ["nobody@example.com"] } }), template("invite"), { status: 404, code: "not_found", parameter: "emails" });
  await expectProblem(contract, await act(request, "invite", "5c1e0b8e-1f0a-4c3e-9a57-0c6f1d2e3a4b", "limit=1"), template("invite"), { status: 404, code: "not_found" });
});

test("every 400, 401 and 403: nothing changes", async ({ request }) => {
  const { waitlist } = await waitlistWithSignups(3);
  const cases: [string, { body?: unknown; headers?: Record<string, string> }, string][] = [
    ["", {}, "limit"],
    ["limit=10001", {}, "limit"],
    ["limit=0", {}, "limit"],
    ["limit=5&status=gone", {}, "status"],
    ["limit=5&verfied=true", {}, "verfied"],
    ["limit=5", { body: { emails: ["a@example.com"] } }, "limit"],
    ["", { body: { emails: [] } }, "emails"],
    ["", { body: { emails: Array.from({ length: 1001 }, (_, index) => `p${index}@example.com`) } }, "emails"],
    ["", { body: { email: "a@example.com" } }, "emails"],
    ["limit=1", { headers: { "Idempotency-Key": "x".repeat(256) } }, "Idempotency-Key"],
  ];
  for (const [query, options, parameter] of cases) {
    await expectProblem(contract, await act(request, "invite", waitlist.id, query, options), template("invite"), { status: 400, code: "invalid_parameter", parameter });
  }
  const notJson = await request.post(`/v1/waitlist/${waitlist.id}/signup/invite`, { headers: { ...admin, "Content-Type": "application/json" }, data: "{nope" });
  await expectProblem(contract, notJson, template("invite"), { status: 400, code: "invalid_parameter", parameter: "body" });
  await expectProblem(contract, await act(request, "invite", "nope", "limit=1"), template("invite"), { status: 400, code: "invalid_parameter", parameter: "id" });
  await expectProblem(contract, await request.post(`/v1/waitlist/${waitlist.id}/signup/invite?limit=1`, { headers: viewer }), template("invite"), { status: 403, code: "forbidden" });
  await expectProblem(contract, await request.post(`/v1/waitlist/${waitlist.id}/signup/invite?limit=1`), template("invite"), { status: 401, code: "unauthenticated" });
  const crossSite = await act(request, "invite", waitlist.id, "limit=1", { headers: { Origin: "https://evil.example" } });
  const refused = await expectProblem(contract, crossSite, template("invite"), { status: 403, code: "forbidden" });
  expect(refused.detail).toContain("https://evil.example");
  const get = await request.get(`/v1/waitlist/${waitlist.id}/signup/invite`, { headers: admin });
  expect([get.status(), get.headers()["allow"]]).toEqual([405, "POST, OPTIONS"]);
  expect(await eventCount(waitlist.id)).toBe(0);
});

test("Idempotency-Key: a retry gets the first answer and changes nothing; the same key with another request is a 422", async ({ request }) => {
  const { waitlist } = await waitlistWithSignups(10);
  const headers = { "Idempotency-Key": `retry-${Date.now()}` };
  const first = await act(request, "invite", waitlist.id, "limit=3", { headers });
  const firstText = await contract.check(first, template("invite"), "POST");
  expect(first.headers()["idempotent-replayed"]).toBeUndefined();
  const again = await act(request, "invite", waitlist.id, "limit=3", { headers });
  expect(await contract.check(again, template("invite"), "POST")).toBe(firstText);
  expect(again.headers()["idempotent-replayed"]).toBe("true");
  expect(await eventCount(waitlist.id)).toBe(3);
  await expectProblem(contract, await act(request, "invite", waitlist.id, "limit=4", { headers }), template("invite"), { status: 422, code: "unprocessable", parameter: "Idempotency-Key" });
  // Without the key the same request is a new one: the next three.
  expect((await contract.json<Result>(await act(request, "invite", waitlist.id, "limit=3"), template("invite"))).changed).toBe(3);
  expect(await eventCount(waitlist.id)).toBe(6);
});
