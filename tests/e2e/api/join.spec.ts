import { expect, test, type APIRequestContext } from "@playwright/test";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { joinedSignup } from "@/lib/domain/joining/join";
import { createApiKey } from "@/lib/domain/keys/queries";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { Contract, expectProblem } from "../support/api-contract";
import { bearer, insertSignups } from "../support/api-fixtures";
import { rawSql } from "../support/raw-sql";

// POST /v1/waitlist/{id}/signup against the real server: every answer checked against the served
// OpenAPI document, each role, each refusal, duplicates in any case (answered without anything stored
// about that person), referrals, idempotency.

interface AlreadyOnList {
  email: string;
  already_on_list: true;
  email_sent: boolean;
}

interface Joined {
  email: string;
  verified: boolean;
  referral: boolean;
  custom_inputs: { label: string; value: string }[];
  id: string;
  status: string;
  position: number | null;
  referral_code: string;
}

const TEMPLATE = "/waitlist/{id}/signup" as const;
const fields = [
  { label: "Company", type: "text" as const, required: true },
  { label: "Plan", type: "choice" as const, options: ["Free", "Pro"], required: false },
];

let contract: Contract;
let joinKey: Record<string, string>;
let admin: Record<string, string>;
let viewer: Record<string, string>;

test.beforeAll(async ({ request }) => {
  contract = await Contract.load(request);
  joinKey = bearer((await createApiKey({ name: "join api joiner", roles: ["waitlist:join"] })).key);
  admin = bearer((await createApiKey({ name: "join api admin", roles: ["waitlist:admin"] })).key);
  viewer = bearer((await createApiKey({ name: "join api viewer", roles: ["waitlist:view"] })).key);
});

async function openWaitlist(tag: string) {
  const waitlist = await createWaitlist({ name: `Join ${tag} ${Date.now()}`, website: "https://example.com/launch" });
  await updateJoinSettings(waitlist.id, { joining: "open", fields }, "cli");
  return waitlist;
}

const row = async (sql: string, ...values: unknown[]) => (await rawSql.get(sql, ...values))!;
const signupCount = async (waitlistId: string) => (await row("SELECT count(*) AS n FROM signups WHERE waitlist_id = ?", waitlistId)).n;
const eventTypes = async (waitlistId: string) => (await rawSql.all<{ type: string }>("SELECT type FROM events WHERE waitlist_id = ? ORDER BY id", waitlistId)).map((event) => event.type);

function join(request: APIRequestContext, waitlistId: string, body: unknown, headers: Record<string, string> = joinKey) {
  // A string is sent as it is (malformed JSON, oversized bodies); anything else as JSON.
  return request.post(`/v1/waitlist/${waitlistId}/signup`, typeof body === "string" ? { data: body, headers: { ...headers, "Content-Type": "application/json" } } : { data: body, headers });
}

test("a join key joins: 201 with the signup, its place and referral code; the same address in any case is a 200 that only says it is on the list", async ({ request }) => {
  const waitlist = await openWaitlist("basic");
  const first = await join(request, waitlist.id, { email: "Ada@Example.com", custom_inputs: [{ label: "Company", value: "Acme" }, { label: "plan", value: "Pro" }] });
  expect(first.status()).toBe(201);
  const signup = await contract.json<Joined>(first, TEMPLATE, "POST");
  expect(signup).toEqual({
    email: "Ada@Example.com",
    verified: false,
    referral: false,
    custom_inputs: [{ label: "Company", value: "Acme" }, { label: "Plan", value: "Pro" }],
    id: expect.stringMatching(/^[1-9][0-9]*$/),
    status: "waiting",
    position: 1,
    referral_code: expect.stringMatching(/^[2-9a-z]{10}$/),
  });
  expect(Object.keys(signup)).toEqual(["email", "verified", "referral", "custom_inputs", "id", "status", "position", "referral_code"]);

  const again = await join(request, waitlist.id, { email: "  ada@EXAMPLE.com", custom_inputs: [{ label: "Company", value: "Other" }] });
  expect(again.status()).toBe(200);
  // This server sends no email (SMTP_URL unset): email_sent is false.
  expect(await contract.json<AlreadyOnList>(again, TEMPLATE, "POST")).toEqual({ email: "ada@EXAMPLE.com", already_on_list: true, email_sent: false });

  const second = await contract.json<Joined>(await join(request, waitlist.id, { email: "bob@example.com", custom_inputs: [{ label: "Company", value: "B" }] }, admin), TEMPLATE, "POST");
  expect(second.position).toBe(2);
  expect(await signupCount(waitlist.id)).toBe(2);
  expect(await eventTypes(waitlist.id)).toEqual(["signup.created", "signup.created"]);

  // The new signups are in the list, and GET's default object keeps its four fields.
  const listed = await request.get(`/v1/waitlist/${waitlist.id}/signup`, { headers: viewer });
  const items = await contract.json<Record<string, unknown>[]>(listed, TEMPLATE);
  expect(items.map((item) => item.email)).toEqual(["Ada@Example.com", "bob@example.com"]);
  expect(Object.keys(items[0]!)).toEqual(["email", "verified", "referral", "custom_inputs"]);
  // signup.created in the events feed.
  const feed = await contract.json<{ type: string; data: { signup: { id: string } } }[]>(await request.get(`/v1/waitlist/${waitlist.id}/events`, { headers: viewer }), "/waitlist/{id}/events");
  expect(feed.map((event) => [event.type, event.data.signup.id])).toEqual([
    ["signup.created", signup.id],
    ["signup.created", second.id],
  ]);
});

test("an address already on the list: the answer (and its Idempotency-Key replay) carries nothing stored about the person; nothing is added", async ({ request }) => {
  const waitlist = await openWaitlist("imported");
  await insertSignups(waitlist.id, [
    { email: "Old.Person@Example.com", verified: true, referral: true, customInputs: [{ label: "Company", value: "Secret Corp" }, { label: "Plan", value: "Pro" }], createdAt: Date.UTC(2026, 0, 1) },
  ]);
  await applyStatusAction("cli", { action: "invite", selection: { waitlistId: waitlist.id, emails: ["old.person@example.com"] } });
  // Its own page gave it a referral code (an imported signup gets one when it is first read).
  const stored = await row("SELECT id FROM signups WHERE waitlist_id = ?", waitlist.id);
  const code = (await joinedSignup(waitlist.id, Number(stored.id)))!.referral_code;
  const body = { email: " OLD.person@example.com ", custom_inputs: [{ label: "Company", value: "X" }] };
  const headers = { ...joinKey, "Idempotency-Key": `known-${Date.now()}` };
  const response = await join(request, waitlist.id, body, headers);
  const replay = await join(request, waitlist.id, body, headers);
  const adminAnswer = await join(request, waitlist.id, body, admin);
  for (const answer of [response, replay, adminAnswer]) {
    expect(answer.status()).toBe(200);
    const text = await answer.text();
    expect(await contract.json<AlreadyOnList>(answer, TEMPLATE, "POST")).toEqual({ email: "OLD.person@example.com", already_on_list: true, email_sent: false });
    // Nothing stored: not the stored spelling, the answers, verified, status, place, id or referral code.
    for (const secret of ["Old.Person@Example.com", "Secret Corp", "Pro", "verified", "invited", "status", "position", "referral", `"${String(stored.id)}"`, code]) expect(text).not.toContain(secret);
  }
  expect(replay.headers()["idempotent-replayed"]).toBe("true");
  expect(await replay.text()).toBe(await response.text());
  // The stored idempotent answer is that non-personal answer too.
  expect(await row("SELECT body FROM idempotent_requests WHERE key = ?", headers["Idempotency-Key"])).toEqual({ body: await response.text() });
  expect(await signupCount(waitlist.id)).toBe(1);
  expect(await eventTypes(waitlist.id)).toEqual(["signup.invited"]);
});

test("referral_code of another signup sets referral and referred_by; an unknown code is ignored", async ({ request }) => {
  const waitlist = await openWaitlist("referral");
  const referrer = await contract.json<Joined>(await join(request, waitlist.id, { email: "ref@example.com", custom_inputs: [{ label: "Company", value: "R" }] }), TEMPLATE, "POST");
  const referred = await contract.json<Joined>(
    await join(request, waitlist.id, { email: "friend@example.com", custom_inputs: [{ label: "Company", value: "F" }], referral_code: referrer.referral_code }),
    TEMPLATE,
    "POST",
  );
  expect(referred).toMatchObject({ referral: true, position: 2 });
  expect(await row("SELECT referred_by AS by FROM signups WHERE id = ?", Number(referred.id))).toEqual({ by: Number(referrer.id) });
  const stranger = await contract.json<Joined>(
    await join(request, waitlist.id, { email: "stranger@example.com", custom_inputs: [{ label: "Company", value: "S" }], referral_code: "zzzzzzzzzz" }),
    TEMPLATE,
    "POST",
  );
  expect(stranger.referral).toBe(false);
  // The referred_by filter lists the referrer's signups.
  const byReferrer = await request.get(`/v1/waitlist/${waitlist.id}/signup?referred_by=${referrer.id}`, { headers: viewer });
  expect((await contract.json<{ email: string }[]>(byReferrer, TEMPLATE)).map((item) => item.email)).toEqual(["friend@example.com"]);
});

test("refusals: roles, no key, unknown and malformed ids, a closed list, bad addresses, inputs off the form, bad bodies; nothing written", async ({ request }) => {
  const waitlist = await openWaitlist("refusals");
  const good = { email: "someone@example.com", custom_inputs: [{ label: "Company", value: "Acme" }] };
  await expectProblem(contract, await join(request, waitlist.id, good, viewer), TEMPLATE, { status: 403, code: "forbidden" }, "POST");
  await expectProblem(contract, await join(request, waitlist.id, good, {}), TEMPLATE, { status: 401, code: "unauthenticated" }, "POST");
  await expectProblem(contract, await join(request, "5c1e0b8e-1f0a-4c3e-9a57-0c6f1d2e3a4b", good), TEMPLATE, { status: 404, code: "not_found" }, "POST");
  await expectProblem(contract, await join(request, "not-a-uuid", good), TEMPLATE, { status: 400, code: "invalid_parameter", parameter: "id" }, "POST");
  for (const email of ["not an address", "", "a@b", `${"x".repeat(250)}@example.com`]) {
    await expectProblem(contract, await join(request, waitlist.id, { ...good, email }), TEMPLATE, { status: 400, code: "invalid_parameter", parameter: "email" }, "POST");
  }
  for (const custom_inputs of [[], [{ label: "Company", value: "  " }], [{ label: "Company", value: "A" }, { label: "Plan", value: "Gold" }], [{ label: "Company", value: "A" }, { label: "Age", value: "3" }]]) {
    const problem = await expectProblem(contract, await join(request, waitlist.id, { ...good, custom_inputs }), TEMPLATE, { status: 400, code: "invalid_parameter", parameter: "custom_inputs" }, "POST");
    expect(problem.detail).toMatch(/required|must be one of|no field/);
  }
  const bodies: [unknown, string][] = [
    [{ ...good, colour: "red" }, "colour"],
    [{ ...good, custom_inputs: [{ label: "Company", value: 3 }] }, "custom_inputs"],
    [{ ...good, custom_inputs: [{ label: "Company", value: "A", extra: 1 }] }, "custom_inputs"],
    [{ custom_inputs: [] }, "email"],
    ["not json", "body"],
    ["[]", "body"],
    [JSON.stringify({ ...good, referral_code: "x".repeat(70 * 1024) }), "body"],
  ];
  for (const [body, parameter] of bodies) {
    await expectProblem(contract, await join(request, waitlist.id, body), TEMPLATE, { status: 400, code: "invalid_parameter", parameter }, "POST");
  }
  // Over the server's 1 MB body limit, refused before the handler reads it whole (the server then
  // closes the connection without reading the rest: this request has one of its own).
  const oversized = JSON.stringify({ ...good, referral_code: "x".repeat(2 * 1024 * 1024) });
  await expectProblem(contract, await join(request, waitlist.id, oversized, { ...joinKey, Connection: "close" }), TEMPLATE, { status: 400, code: "invalid_parameter", parameter: "body" }, "POST");
  const crossSite = await join(request, waitlist.id, good, { ...joinKey, Origin: "https://evil.example" });
  await expectProblem(contract, crossSite, TEMPLATE, { status: 403, code: "forbidden" }, "POST");
  await updateJoinSettings(waitlist.id, { joining: "closed" }, "cli");
  const closed = await expectProblem(contract, await join(request, waitlist.id, good), TEMPLATE, { status: 409, code: "conflict" }, "POST");
  expect(closed.detail).toContain("not taking signups");
  // A waitlist nobody opened is closed.
  const never = await createWaitlist({ name: `Never opened ${Date.now()}`, website: "https://example.com" });
  await expectProblem(contract, await join(request, never.id, { email: "x@example.com" }), TEMPLATE, { status: 409, code: "conflict" }, "POST");
  expect(await signupCount(waitlist.id)).toBe(0);
  expect(await eventTypes(waitlist.id)).toEqual([]);
});

test("a join key can do nothing else: reads and status actions are 403", async ({ request }) => {
  const waitlist = await openWaitlist("only-join");
  await expectProblem(contract, await request.get("/v1/waitlist", { headers: joinKey }), "/waitlist", { status: 403, code: "forbidden" });
  await expectProblem(contract, await request.get(`/v1/waitlist/${waitlist.id}/signup`, { headers: joinKey }), TEMPLATE, { status: 403, code: "forbidden" });
  await expectProblem(contract, await request.post(`/v1/waitlist/${waitlist.id}/signup/invite?limit=1`, { headers: joinKey }), "/waitlist/{id}/signup/invite", { status: 403, code: "forbidden" }, "POST");
  const options = await request.fetch(`/v1/waitlist/${waitlist.id}/signup`, { method: "OPTIONS" });
  expect([options.status(), options.headers()["allow"]]).toEqual([204, "GET, HEAD, POST, OPTIONS"]);
  const put = await request.fetch(`/v1/waitlist/${waitlist.id}/signup`, { method: "PUT", headers: joinKey });
  await expectProblem(contract, put, TEMPLATE, { status: 405, code: "method_not_allowed" }, "POST");
});

test("Idempotency-Key: a retry gets the first answer (201) and creates nothing; another body with the key is a 422", async ({ request }) => {
  const waitlist = await openWaitlist("idempotent");
  const body = { email: "retry@example.com", custom_inputs: [{ label: "Company", value: "A" }] };
  const headers = { ...joinKey, "Idempotency-Key": `join-${Date.now()}` };
  const first = await join(request, waitlist.id, body, headers);
  const firstText = await contract.check(first, TEMPLATE, "POST");
  expect(first.status()).toBe(201);
  const retry = await join(request, waitlist.id, body, headers);
  expect([retry.status(), retry.headers()["idempotent-replayed"], await contract.check(retry, TEMPLATE, "POST")]).toEqual([201, "true", firstText]);
  await expectProblem(contract, await join(request, waitlist.id, { ...body, email: "other@example.com" }, headers), TEMPLATE, { status: 422, code: "unprocessable", parameter: "Idempotency-Key" }, "POST");
  expect(await signupCount(waitlist.id)).toBe(1);
  expect(await eventTypes(waitlist.id)).toEqual(["signup.created"]);
});

test("per-address limit: the 11th join of one address within the hour is a 429 with Retry-After", async ({ request }) => {
  const waitlist = await openWaitlist("limited");
  const body = { email: "eager@example.com", custom_inputs: [{ label: "Company", value: "A" }] };
  for (let attempt = 0; attempt < 10; attempt++) expect((await join(request, waitlist.id, body)).status()).toBe(attempt === 0 ? 201 : 200);
  const limited = await join(request, waitlist.id, { ...body, email: "EAGER@example.com" });
  const problem = await expectProblem(contract, limited, TEMPLATE, { status: 429, code: "rate_limited" }, "POST");
  expect(problem.detail).toContain("this address");
  expect(Number(limited.headers()["retry-after"])).toBeGreaterThan(3000);
  expect((await join(request, waitlist.id, { ...body, email: "patient@example.com" })).status()).toBe(201);
});
