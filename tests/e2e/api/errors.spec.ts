import { expect, test } from "@playwright/test";
import { encodeCursor } from "@/lib/api/cursor";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { Contract, expectProblem, type PathTemplate } from "../support/api-contract";
import { bearer, makeKeys, nextLink, waitlistWithSignups } from "../support/api-fixtures";
import { rawSql } from "../support/raw-sql";

let contract: Contract;
let auth: Record<string, string>;
let waitlistId: string;
let otherWaitlistId: string;
let endpoints: { url: string; template: PathTemplate }[];
const unknownId = "6f1c1a52-34b3-4c2e-9d59-0a4f1b2c3d4e";

test.beforeAll(async ({ request }) => {
  contract = await Contract.load(request);
  auth = bearer((await makeKeys()).viewer);
  waitlistId = (await waitlistWithSignups(10)).waitlist.id;
  otherWaitlistId = (await waitlistWithSignups(10)).waitlist.id;
  endpoints = [
    { url: "/v1/waitlist", template: "/waitlist" },
    { url: `/v1/waitlist/${waitlistId}`, template: "/waitlist/{id}" },
    { url: `/v1/waitlist/${waitlistId}/signup`, template: "/waitlist/{id}/signup" },
  ];
});

test("a malformed id is a 400 naming id on both id routes", async ({ request }) => {
  for (const bad of ["abc", "123", `${waitlistId}x`, waitlistId.replaceAll("-", ""), "zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz"]) {
    await expectProblem(contract, await request.get(`/v1/waitlist/${bad}`, { headers: auth }), "/waitlist/{id}", { status: 400, code: "invalid_parameter", parameter: "id" });
    await expectProblem(contract, await request.get(`/v1/waitlist/${bad}/signup`, { headers: auth }), "/waitlist/{id}/signup", {
      status: 400,
      code: "invalid_parameter",
      parameter: "id",
    });
  }
});

test("a well-formed unknown id is a 404 on both id routes; an upper-case known id is found", async ({ request }) => {
  await expectProblem(contract, await request.get(`/v1/waitlist/${unknownId}`, { headers: auth }), "/waitlist/{id}", { status: 404, code: "not_found" });
  await expectProblem(contract, await request.get(`/v1/waitlist/${unknownId}/signup`, { headers: auth }), "/waitlist/{id}/signup", { status: 404, code: "not_found" });
  await expectProblem(contract, await request.get(`/v1/waitlist/${unknownId}/signup?limit=5`, { headers: auth }), "/waitlist/{id}/signup", { status: 404, code: "not_found" });
  const upper = await request.get(`/v1/waitlist/${waitlistId.toUpperCase()}`, { headers: auth });
  expect((await contract.json<{ id: string }>(upper, "/waitlist/{id}")).id).toBe(waitlistId);
});

test("bad query parameters are a 400 naming the parameter", async ({ request }) => {
  const signups = `/v1/waitlist/${waitlistId}/signup`;
  const cases: [string, PathTemplate, string][] = [
    [`${signups}?verfied=true`, "/waitlist/{id}/signup", "verfied"],
    [`${signups}?verified=yes`, "/waitlist/{id}/signup", "verified"],
    [`${signups}?verified=TRUE`, "/waitlist/{id}/signup", "verified"],
    [`${signups}?verified=1`, "/waitlist/{id}/signup", "verified"],
    [`${signups}?verified=`, "/waitlist/{id}/signup", "verified"],
    [`${signups}?referral=no`, "/waitlist/{id}/signup", "referral"],
    [`${signups}?verified=true&verified=false`, "/waitlist/{id}/signup", "verified"],
    [`${signups}?limit=5&limit=5`, "/waitlist/{id}/signup", "limit"],
    // `email` is a filter now (tests/e2e/api/filters.spec.ts); the search's old internal name is not.
    [`${signups}?search=a`, "/waitlist/{id}/signup", "search"],
    [`${signups}?q=a`, "/waitlist/{id}/signup", "q"],
    [`/v1/waitlist/${waitlistId}?verified=true`, "/waitlist/{id}", "verified"],
    ["/v1/waitlist?verified=true", "/waitlist", "verified"],
    ["/v1/waitlist?api_key=x", "/waitlist", "api_key"],
  ];
  for (const limit of ["0", "1001", "-1", "1.5", "ten", "", "99999999", "1e2"]) {
    cases.push([`/v1/waitlist?limit=${limit}`, "/waitlist", "limit"], [`${signups}?limit=${limit}`, "/waitlist/{id}/signup", "limit"]);
  }
  for (const [url, template, parameter] of cases) {
    const response = await request.get(url, { headers: auth });
    const body = await expectProblem(contract, response, template, { status: 400, code: "invalid_parameter", parameter });
    expect(body.detail, url).toContain(parameter);
  }
});

test("a bad, altered, foreign or limitless cursor is a 400 naming cursor", async ({ request }) => {
  const signups = `/v1/waitlist/${waitlistId}/signup`;
  const first = await request.get(`${signups}?limit=3`, { headers: auth });
  const next = nextLink(first)!;
  const cursor = new URL(next).searchParams.get("cursor")!;
  const waitlistsCursor = new URL(nextLink(await request.get("/v1/waitlist?limit=1", { headers: auth }))!).searchParams.get("cursor")!;
  const cases: [string, PathTemplate][] = [
    [`${signups}?limit=3&cursor=garbage`, "/waitlist/{id}/signup"],
    [`${signups}?limit=3&cursor=${cursor.slice(0, -2)}`, "/waitlist/{id}/signup"],
    [`${signups}?limit=3&cursor=`, "/waitlist/{id}/signup"],
    [`${signups}?cursor=${cursor}`, "/waitlist/{id}/signup"],
    [`/v1/waitlist/${otherWaitlistId}/signup?limit=3&cursor=${cursor}`, "/waitlist/{id}/signup"],
    [`${signups}?limit=3&verified=true&cursor=${cursor}`, "/waitlist/{id}/signup"],
    [`${signups}?limit=3&cursor=${waitlistsCursor}`, "/waitlist/{id}/signup"],
    [`/v1/waitlist?limit=3&cursor=${cursor}`, "/waitlist"],
    [`/v1/waitlist?cursor=${waitlistsCursor}`, "/waitlist"],
    // Right scope, wrong id type: not a cursor the API issued.
    [`${signups}?limit=3&cursor=${encodeCursor(`signups:${waitlistId}:verified=any:referral=any`, { createdAt: 1, id: "x" })}`, "/waitlist/{id}/signup"],
  ];
  for (const [url, template] of cases) {
    await expectProblem(contract, await request.get(url, { headers: auth }), template, { status: 400, code: "invalid_parameter", parameter: "cursor" });
  }
  // The same cursor is fine with another page size.
  const resumed = await request.get(`${signups}?limit=5&cursor=${cursor}`, { headers: auth });
  expect(resumed.status()).toBe(200);
  await contract.check(resumed, "/waitlist/{id}/signup");
});

test("unknown /v1 paths are 404 problem+json for every method", async ({ request }) => {
  const paths = ["/v1", "/v1/nope", "/v1/waitlists", `/v1/waitlist/${waitlistId}/signups`, `/v1/waitlist/${waitlistId}/signup/extra`, "/v1/openapi.yaml"];
  for (const path of paths) {
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
      const response = await request.fetch(path, { method, headers: auth });
      expect(response.headers()["cache-control"]).toBe("no-store");
      await expectProblem(contract, response, null, { status: 404, code: "not_found" });
    }
    const head = await request.head(path);
    expect(head.status()).toBe(404);
    await contract.check(head, null, "HEAD");
  }
});

// The signup list's path also takes POST (a join, tests/e2e/api/join.spec.ts).
const answersPost = (template: PathTemplate) => template === "/waitlist/{id}/signup";
const allowOf = (template: PathTemplate) => (answersPost(template) ? "GET, HEAD, POST, OPTIONS" : "GET, HEAD, OPTIONS");

test("POST, PUT, PATCH and DELETE are 405 with Allow on every endpoint, with or without a key (POST of a join aside)", async ({ request }) => {
  for (const { url, template } of [...endpoints, { url: "/v1/openapi.json", template: "/openapi.json" as const }]) {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"].filter((method) => method !== "POST" || !answersPost(template))) {
      for (const headers of [{}, auth]) {
        const response = await request.fetch(url, { method, headers, data: { name: "x" } });
        await expectProblem(contract, response, template, { status: 405, code: "method_not_allowed" });
        expect(response.headers()["allow"]).toBe(allowOf(template));
      }
    }
  }
});

test("OPTIONS is 204 with Allow and no body, without a key", async ({ request }) => {
  for (const { url, template } of [...endpoints, { url: "/v1/openapi.json", template: "/openapi.json" as const }]) {
    const response = await request.fetch(url, { method: "OPTIONS" });
    expect(response.status()).toBe(204);
    expect(response.headers()["allow"]).toBe(allowOf(template));
    await contract.check(response, template, "OPTIONS");
  }
});

test("HEAD answers like GET without a body", async ({ request }) => {
  const emptyId = (await createWaitlist({ name: "Head empty", website: "https://example.com" })).id;
  const urls: [string, PathTemplate, Record<string, string>][] = [
    ...endpoints.map(({ url, template }) => [url, template, auth] as [string, PathTemplate, Record<string, string>]),
    [`/v1/waitlist/${waitlistId}/signup?limit=2&verified=true`, "/waitlist/{id}/signup", auth],
    [`/v1/waitlist/${emptyId}/signup`, "/waitlist/{id}/signup", auth],
    [`/v1/waitlist/${unknownId}`, "/waitlist/{id}", auth],
    ["/v1/waitlist/nope", "/waitlist/{id}", auth],
    ["/v1/waitlist", "/waitlist", {}],
    ["/v1/openapi.json", "/openapi.json", {}],
  ];
  for (const [url, template, headers] of urls) {
    const get = await request.get(url, { headers });
    const head = await request.head(url, { headers });
    expect(head.status(), url).toBe(get.status());
    for (const name of ["content-type", "cache-control", "www-authenticate", "allow"]) expect(head.headers()[name], `${url} ${name}`).toBe(get.headers()[name]);
    expect(head.headers()["link"] === undefined).toBe(get.headers()["link"] === undefined);
    expect(head.headers()["request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(head.headers()["request-id"]).not.toBe(get.headers()["request-id"]);
    await contract.check(head, template, "HEAD");
  }
});

test("an unexpected failure is a 500 internal problem without internals", async ({ request }) => {
  // A real database failure on the real server: the signups table is briefly missing.
  await rawSql.run("ALTER TABLE signups RENAME TO signups_away");
  try {
    for (const url of [`/v1/waitlist/${waitlistId}/signup`, `/v1/waitlist/${waitlistId}/signup?limit=5`]) {
      const response = await request.get(url, { headers: auth });
      const body = await expectProblem(contract, response, "/waitlist/{id}/signup", { status: 500, code: "internal" });
      expect(JSON.stringify(body)).not.toMatch(/signups|SQLITE|no such table|does not exist|SELECT|\bat\b/i);
    }
  } finally {
    await rawSql.run("ALTER TABLE signups_away RENAME TO signups");
  }
  expect((await request.get(`/v1/waitlist/${waitlistId}/signup?limit=5`, { headers: auth })).status()).toBe(200);
});

test("a path with a malformed percent-encoding still gets the API's checks and problem bodies", async ({ request }) => {
  await expectProblem(contract, await request.get("/v1/waitlist/%ZZ", { headers: auth }), "/waitlist/{id}", { status: 400, code: "invalid_parameter", parameter: "id" });
  await expectProblem(contract, await request.get("/v1/waitlist/%E0%A4%A/signup?limit=2", { headers: auth }), "/waitlist/{id}/signup", {
    status: 400,
    code: "invalid_parameter",
    parameter: "id",
  });
  await expectProblem(contract, await request.get("/v1/waitlist/%ZZ"), "/waitlist/{id}", { status: 401, code: "unauthenticated" });
  await expectProblem(contract, await request.delete("/v1/waitlist/%ZZ"), "/waitlist/{id}", { status: 405, code: "method_not_allowed" });
  await expectProblem(contract, await request.get("/v1/no%ZZpe", { headers: auth }), null, { status: 404, code: "not_found" });
});

test("a trailing slash is a 308 redirect to the canonical path", async ({ request }) => {
  const response = await request.get("/v1/waitlist/?limit=1", { headers: auth, maxRedirects: 0 });
  expect(response.status()).toBe(308);
  expect(response.headers()["location"]).toBe("/v1/waitlist?limit=1");
});
