import { expect, test } from "@playwright/test";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { Contract, expectProblem, type PathTemplate } from "../support/api-contract";
import { bearer, makeKeys } from "../support/api-fixtures";

// Authentication and roles on every endpoint, and the order of checks: method, authentication,
// role, parameters, resource.

let contract: Contract;
let keys: Awaited<ReturnType<typeof makeKeys>>;
let endpoints: { url: string; template: PathTemplate }[];

test.beforeAll(async ({ request }) => {
  contract = await Contract.load(request);
  keys = await makeKeys();
  const waitlist = await createWaitlist({ name: "Auth tests", website: "https://example.com" });
  endpoints = [
    { url: "/v1/waitlist", template: "/waitlist" },
    { url: `/v1/waitlist/${waitlist.id}`, template: "/waitlist/{id}" },
    { url: `/v1/waitlist/${waitlist.id}/signup`, template: "/waitlist/{id}/signup" },
  ];
});

test("every endpoint answers 401 with one body for a missing, malformed, unknown, revoked or expired key", async ({ request }) => {
  const attempts: Record<string, Record<string, string>> = {
    "no key": {},
    "empty bearer": { Authorization: "Bearer " },
    "other scheme": { Authorization: `Basic ${keys.viewer}` },
    "garbage key": bearer("not-a-key"),
    "unknown key": bearer(`wl_${"A".repeat(43)}`),
    "revoked key": bearer(keys.revoked),
    "expired key": bearer(keys.expired),
    "revoked X-API-Key": { "X-API-Key": keys.revoked },
  };
  for (const { url, template } of endpoints) {
    const details = new Set<string>();
    for (const [name, headers] of Object.entries(attempts)) {
      const response = await request.get(url, { headers });
      const body = await expectProblem(contract, response, template, { status: 401, code: "unauthenticated" });
      expect(response.headers()["www-authenticate"], name).toBe('Bearer realm="waitlist"');
      const { request_id: requestId, ...rest } = body;
      expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
      details.add(JSON.stringify(rest));
    }
    expect(details.size, `${url}: the same body whatever the reason`).toBe(1);
  }
});

test("a key in the query string is never read", async ({ request }) => {
  for (const { template, url } of endpoints) {
    for (const name of ["api_key", "key", "apiKey"]) {
      const response = await request.get(`${url}?${name}=${keys.viewer}`);
      await expectProblem(contract, response, template, { status: 401, code: "unauthenticated" });
    }
  }
});

test("a valid key without the role waitlist:view gets 403 on every endpoint", async ({ request }) => {
  for (const { url, template } of endpoints) {
    const response = await request.get(url, { headers: bearer(keys.noRole) });
    await expectProblem(contract, response, template, { status: 403, code: "forbidden" });
    expect(response.headers()["www-authenticate"]).toBeUndefined();
  }
});

test("Authorization: Bearer and X-API-Key both authenticate", async ({ request }) => {
  for (const { url, template } of endpoints) {
    for (const headers of [bearer(keys.viewer), { "X-API-Key": keys.viewer }, { Authorization: `bearer ${keys.viewer}` }]) {
      const response = await request.get(url, { headers });
      expect(response.status()).toBe(200);
      await contract.check(response, template);
    }
  }
});

test("checks run in order: method, authentication, role, parameters, resource", async ({ request }) => {
  const unknownId = "00000000-0000-4000-8000-000000000000";
  // Method before authentication.
  await expectProblem(contract, await request.post("/v1/waitlist/not-a-uuid"), "/waitlist/{id}", { status: 405, code: "method_not_allowed" });
  // Authentication before parameters and resource: nothing is learned about ids or parameters.
  for (const url of ["/v1/waitlist/not-a-uuid", `/v1/waitlist/${unknownId}/signup?verfied=true`, "/v1/waitlist?limit=0"]) {
    await expectProblem(contract, await request.get(url), "/waitlist/{id}", { status: 401, code: "unauthenticated" });
  }
  // Role before parameters.
  await expectProblem(contract, await request.get("/v1/waitlist/not-a-uuid", { headers: bearer(keys.noRole) }), "/waitlist/{id}", { status: 403, code: "forbidden" });
  // Parameters before resource.
  const badFilterOnUnknown = await request.get(`/v1/waitlist/${unknownId}/signup?verified=yes`, { headers: bearer(keys.viewer) });
  await expectProblem(contract, badFilterOnUnknown, "/waitlist/{id}/signup", { status: 400, code: "invalid_parameter", parameter: "verified" });
  await expectProblem(contract, await request.get(`/v1/waitlist/${unknownId}/signup`, { headers: bearer(keys.viewer) }), "/waitlist/{id}/signup", {
    status: 404,
    code: "not_found",
  });
});
