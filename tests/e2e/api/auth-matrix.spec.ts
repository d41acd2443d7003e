import { expect, test, type APIRequestContext } from "@playwright/test";
import { createApiKey, revokeApiKey } from "@/lib/domain/keys/queries";
import { createSession, deleteSession, SESSION_LIFETIME_MS } from "@/lib/domain/sessions";
import { SESSION_COOKIE } from "@/lib/dashboard/session-cookie";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { Contract, expectProblem, type PathTemplate } from "../support/api-contract";
import { bearer, insertSignups, makeSignups } from "../support/api-fixtures";

// Every /v1 route, every dashboard page and the CSV export refuse every bad credential: a missing,
// wrong, revoked or expired API key on /v1; a missing, garbage, revoked-key, expired or signed-out
// session on the dashboard. And a wrong key costs the same whatever part of it matches.

let contract: Contract;
let waitlistId: string;
let secretEmail: string;
const waitlistName = `Auth matrix ${Date.now()}`;

test.beforeAll(async ({ request }) => {
  contract = await Contract.load(request);
  const waitlist = await createWaitlist({ name: waitlistName, website: "https://example.com" });
  waitlistId = waitlist.id;
  const seeds = makeSignups(30, `matrix${Date.now()}`);
  await insertSignups(waitlist.id, seeds);
  secretEmail = seeds[0]!.email;
});

async function keyVariants() {
  const viewer = (await createApiKey({ name: "matrix viewer", roles: ["waitlist:view"] })).key;
  const revoked = await createApiKey({ name: "matrix revoked", roles: ["waitlist:view"] });
  await revokeApiKey(revoked.id);
  const expired = (await createApiKey({ name: "matrix expired", roles: ["waitlist:view"], expiresAt: new Date(Date.now() - 1000) })).key;
  const flipped = viewer.slice(0, -1) + (viewer.endsWith("A") ? "B" : "A");
  return {
    viewer,
    refused: {
      missing: {},
      "empty bearer": { Authorization: "Bearer " },
      garbage: bearer("garbage"),
      "unknown well-formed key": bearer(`wl_${"Q".repeat(43)}`),
      "valid key with its last character changed": bearer(flipped),
      "valid key, wrong scheme": { Authorization: `Basic ${viewer}` },
      revoked: bearer(revoked.key),
      "revoked in X-API-Key": { "X-API-Key": revoked.key },
      expired: bearer(expired),
      "expired in X-API-Key": { "X-API-Key": expired },
      "key as a session cookie": { Cookie: `${SESSION_COOKIE}=${viewer}` },
    } as Record<string, Record<string, string>>,
  };
}

test("every /v1 route refuses missing, wrong, revoked and expired keys with the same 401", async ({ request }) => {
  const { viewer, refused } = await keyVariants();
  const routes: [string, PathTemplate][] = [
    ["/v1/waitlist", "/waitlist"],
    ["/v1/waitlist?limit=1", "/waitlist"],
    [`/v1/waitlist/${waitlistId}`, "/waitlist/{id}"],
    [`/v1/waitlist/${waitlistId}/signup`, "/waitlist/{id}/signup"],
    [`/v1/waitlist/${waitlistId}/signup?verified=true&limit=5`, "/waitlist/{id}/signup"],
  ];
  for (const [url, template] of routes) {
    const bodies = new Set<string>();
    for (const [name, headers] of Object.entries(refused)) {
      for (const method of ["GET", "HEAD"] as const) {
        const response = await request.fetch(url, { method, headers });
        if (method === "HEAD") {
          expect(response.status(), `${name} HEAD ${url}`).toBe(401);
          continue;
        }
        const body = await expectProblem(contract, response, template, { status: 401, code: "unauthenticated" });
        const text = JSON.stringify({ ...body, request_id: undefined });
        expect(text).not.toContain(secretEmail);
        bodies.add(text);
      }
    }
    expect(bodies.size, `${url}: one body whatever the reason`).toBe(1);
    // The valid key is served, so the refusals above are about the credential alone.
    expect((await request.get(url, { headers: bearer(viewer) })).status()).toBe(200);
  }
});

async function sessionVariants() {
  const key = await createApiKey({ name: "matrix session", roles: ["waitlist:view"] });
  const valid = (await createSession(key.id)).token;
  const revokedKey = await createApiKey({ name: "matrix session revoked", roles: ["waitlist:view"] });
  const ofRevokedKey = (await createSession(revokedKey.id)).token;
  await revokeApiKey(revokedKey.id);
  const expiredKey = await createApiKey({ name: "matrix session expired key", roles: ["waitlist:view"], expiresAt: new Date(Date.now() + 60_000) });
  const ofExpiredKey = (await createSession(expiredKey.id, undefined, new Date())).token;
  const noRole = await createApiKey({ name: "matrix session no role", roles: [] });
  const ofKeyWithoutRole = (await createSession(noRole.id)).token;
  const expired = (await createSession(key.id, undefined, new Date(Date.now() - SESSION_LIFETIME_MS - 60_000))).token;
  const signedOut = (await createSession(key.id)).token;
  await deleteSession(signedOut);
  return {
    valid,
    expiredKey,
    refused: {
      missing: undefined,
      empty: "",
      garbage: "garbage",
      "unknown token": "A".repeat(43),
      "huge token": "z".repeat(4000),
      "session of a revoked key": ofRevokedKey,
      "session of an expired key": ofExpiredKey,
      "session of a key without the role": ofKeyWithoutRole,
      "expired session": expired,
      "signed-out session": signedOut,
      "an API key instead of a token": key.key,
    } as Record<string, string | undefined>,
  };
}

/** The reason the sign-in page gives for a session that existed but ended; none for the others. */
const END_REASONS: Record<string, string> = {
  "session of a revoked key": "revoked",
  "session of an expired key": "key-expired",
  "session of a key without the role": "role-removed",
  "expired session": "session-expired",
};

async function expectSignInRedirect(request: APIRequestContext, url: string, cookie: string | undefined, what: string, rsc = false, reason?: string) {
  const headers: Record<string, string> = {};
  if (cookie !== undefined) headers.Cookie = `${SESSION_COOKIE}=${cookie}`;
  if (rsc) headers.RSC = "1";
  const response = await request.get(url, { headers, maxRedirects: 0 });
  const body = await response.text();
  expect(body, `${what}: no data`).not.toContain(secretEmail);
  expect(body, `${what}: no data`).not.toContain(waitlistName);
  if (rsc) {
    // A client-side navigation (RSC) gets a redirect, in the payload or as a 307: never the data.
    expect([200, 307], what).toContain(response.status());
    return;
  }
  expect(response.status(), what).toBe(307);
  const location = new URL(response.headers()["location"]!, "http://our.example");
  expect(location.pathname, what).toBe("/signin");
  expect(location.searchParams.get("reason") ?? undefined, what).toBe(reason);
  expect([...location.searchParams.keys()].filter((name) => name !== "reason" && name !== "next"), what).toEqual([]);
}

test("the invitation routes refuse missing, wrong, revoked and expired keys with the same 401, before reading the token", async ({ request }) => {
  const { refused } = await keyVariants();
  const redeemer = (await createApiKey({ name: "matrix redeemer", roles: ["waitlist:redeem"] })).key;
  const routes: ["GET" | "POST", string, PathTemplate][] = [
    ["GET", "/v1/invitations/not-a-token", "/invitations/{token}"],
    ["POST", "/v1/invitations/not-a-token/redeem", "/invitations/{token}/redeem"],
  ];
  for (const [method, url, template] of routes) {
    const bodies = new Set<string>();
    for (const headers of Object.values(refused)) {
      const body = await expectProblem(contract, await request.fetch(url, { method, headers }), template, { status: 401, code: "unauthenticated" }, method);
      bodies.add(JSON.stringify({ ...body, request_id: undefined }));
    }
    expect(bodies.size, `${method} ${url}: one body whatever the reason`).toBe(1);
    // With a valid key the token is read: a malformed one is a 400, so the refusals above are about the credential alone.
    await expectProblem(contract, await request.fetch(url, { method, headers: bearer(redeemer) }), template, { status: 400, code: "invalid_parameter", parameter: "token" }, method);
  }
});

test("every dashboard page and the CSV export refuse missing, garbage, revoked, expired and signed-out sessions", async ({ request }) => {
  const { valid, refused, expiredKey } = await sessionVariants();
  // The key behind one session expires now (it was valid when the session started).
  const { rawSql } = await import("../support/raw-sql");
  await rawSql.run("UPDATE api_keys SET expires_at = ? WHERE id = ?", Date.now() - 1000, expiredKey.id);
  const urls = ["/", "/?q=matrix&sort=name", `/waitlists/${waitlistId}`, `/waitlists/${waitlistId}?verified=true&page=2&size=50`, `/waitlists/${waitlistId}/export`, `/waitlists/${waitlistId}/export?referral=false`];
  for (const url of urls) {
    for (const [name, cookie] of Object.entries(refused)) {
      await expectSignInRedirect(request, url, cookie, `${name} on ${url}`, false, END_REASONS[name]);
      if (!url.includes("/export")) await expectSignInRedirect(request, url, cookie, `${name} on ${url} (RSC)`, true);
    }
    // A valid session is served, so the refusals above are about the session alone.
    const ok = await request.get(url, { headers: { Cookie: `${SESSION_COOKIE}=${valid}` }, maxRedirects: 0 });
    expect(ok.status(), url).toBe(200);
  }
});

test("a wrong key costs the same whether it shares 0 or 40 leading characters with a real one", async ({ request }) => {
  const real = (await createApiKey({ name: "matrix timing", roles: ["waitlist:view"] })).key;
  const unrelated = `wl_${"Z".repeat(43)}`;
  const close = real.slice(0, 43) + (real.slice(43) === "AAA" ? "BBB" : "AAA");
  expect(close.slice(0, 43)).toBe(real.slice(0, 43));
  const timings: Record<"unrelated" | "close", number[]> = { unrelated: [], close: [] };
  for (let round = 0; round < 150; round++) {
    // Interleaved, so that drift on a shared machine hits both alike.
    for (const [name, key] of round % 2 ? ([["close", close], ["unrelated", unrelated]] as const) : ([["unrelated", unrelated], ["close", close]] as const)) {
      const started = performance.now();
      const response = await request.get("/v1/waitlist", { headers: bearer(key) });
      timings[name].push(performance.now() - started);
      expect(response.status()).toBe(401);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const [unrelatedMs, closeMs] = [median(timings.unrelated), median(timings.close)];
  console.log(`timing: median ${unrelatedMs.toFixed(2)} ms for a key sharing 0 characters, ${closeMs.toFixed(2)} ms for one sharing 43`);
  // Lookups are by SHA-256, so no systematic difference; the bound only absorbs machine noise
  // (the unit test tests/unit/lib/domain/keys/queries.test.ts shows the hash-only lookup directly).
  expect(Math.abs(closeMs - unrelatedMs)).toBeLessThan(Math.max(2, 0.5 * unrelatedMs));
});
