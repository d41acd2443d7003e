import { expect, test, type APIRequestContext } from "@playwright/test";
import { createApiKey } from "@/lib/domain/keys/queries";
import { Contract, expectProblem, type PathTemplate } from "../support/api-contract";
import { bearer } from "../support/api-fixtures";
import { openWaitlist } from "../support/join-fixtures";
import { rawSql } from "../support/raw-sql";

// Fraud defence against the real server (lib/domain/fraud): a disposable address refused (a problem
// naming the reason, nothing stored) or flagged (stored, listed by the `flag` filter), and the review
// decisions of /v1 with their events; every bad input a clear error that changes nothing. Every
// answer is checked against the served OpenAPI document.

let contract: Contract;
let joinKey: Record<string, string>;
let admin: Record<string, string>;
let viewer: Record<string, string>;

test.beforeAll(async ({ request }) => {
  contract = await Contract.load(request);
  joinKey = bearer((await createApiKey({ name: "fraud joiner", roles: ["waitlist:join"] })).key);
  admin = bearer((await createApiKey({ name: "fraud admin", roles: ["waitlist:admin"] })).key);
  viewer = bearer((await createApiKey({ name: "fraud viewer", roles: ["waitlist:view"] })).key);
});

const count = (sql: string, ...values: unknown[]) => rawSql.value<number>(sql, ...values);
const eventTypes = async (waitlistId: string) => (await rawSql.all<{ type: string }>("SELECT type FROM events WHERE waitlist_id = ? ORDER BY id", waitlistId)).map((event) => event.type);
const referralState = async (signupId: string) => (await rawSql.get<{ state: string }>("SELECT state FROM referrals WHERE signup_id = ?", Number(signupId)))?.state;
const review = (decision: string) => `/waitlist/{id}/signup/review/${decision}` as PathTemplate;

async function join(request: APIRequestContext, waitlistId: string, email: string, referralCode?: string) {
  return request.post(`/v1/waitlist/${waitlistId}/signup`, { headers: joinKey, data: { email, ...(referralCode ? { referral_code: referralCode } : {}) } });
}

async function decide(request: APIRequestContext, decision: string, waitlistId: string, body: unknown, headers = admin) {
  return request.post(`/v1/waitlist/${waitlistId}/signup/review/${decision}`, { headers, data: body });
}

test("refuse: a disposable address is a 422 naming the reason, and nothing is stored", async ({ request }) => {
  const waitlist = await openWaitlist({ disposable: "refuse" });
  const response = await join(request, waitlist.id, "someone@inbox.mailinator.com");
  const problem = await expectProblem(contract, response, "/waitlist/{id}/signup", { status: 422, code: "unprocessable", parameter: "email" }, "POST");
  expect(problem.detail).toContain("disposable email");
  expect(await count("SELECT count(*) AS n FROM signups WHERE waitlist_id = ?", waitlist.id)).toBe(0);
  expect(await eventTypes(waitlist.id)).toEqual([]);
  // An ordinary address still joins.
  expect((await join(request, waitlist.id, "ada@example.com")).status()).toBe(201);
});

test("flag: stored and listed by the flag filter; approve makes the held referral count, with one event per signup", async ({ request }) => {
  const waitlist = await openWaitlist();
  const ada = (await (await join(request, waitlist.id, "ada@example.com")).json()) as { id: string; referral_code: string };
  const fakeResponse = await join(request, waitlist.id, "friend@yopmail.com", ada.referral_code);
  expect(fakeResponse.status()).toBe(201);
  const fake = (await fakeResponse.json()) as { id: string };
  expect(await referralState(fake.id)).toBe("flagged");

  const listed = await request.get(`/v1/waitlist/${waitlist.id}/signup?flag=disposable&fields=id,email`, { headers: viewer });
  expect(await contract.json(listed, "/waitlist/{id}/signup")).toEqual([{ id: fake.id, email: "friend@yopmail.com" }]);
  expect(await contract.json(await request.get(`/v1/waitlist/${waitlist.id}/signup?flag=lookalike,burst`, { headers: viewer }), "/waitlist/{id}/signup")).toEqual([]);

  const approved = await decide(request, "approve", waitlist.id, { emails: ["FRIEND@yopmail.com", "ada@example.com"] });
  expect(approved.status()).toBe(200);
  expect(await contract.json(approved, review("approve"), "POST")).toEqual({ decided: 1, skipped: 1, ids: [fake.id] });
  expect(await referralState(fake.id)).toBe("counted");
  expect(await eventTypes(waitlist.id)).toEqual(["signup.created", "signup.created", "signup.flag_approved"]);
  // Decided: no longer waiting, so the filter no longer lists it, and a second decision is a 409.
  expect(await contract.json(await request.get(`/v1/waitlist/${waitlist.id}/signup?flag=disposable`, { headers: viewer }), "/waitlist/{id}/signup")).toEqual([]);
  await expectProblem(contract, await decide(request, "discount", waitlist.id, { emails: ["friend@yopmail.com"] }), review("discount"), { status: 409, code: "conflict", parameter: "emails" }, "POST");
});

test("discount: the referral never counts, and its event is signup.flag_discounted", async ({ request }) => {
  const waitlist = await openWaitlist();
  const ada = (await (await join(request, waitlist.id, "ada@gmail.com")).json()) as { referral_code: string };
  const twin = (await (await join(request, waitlist.id, "a.d.a+again@gmail.com", ada.referral_code)).json()) as { id: string };
  const listed = await request.get(`/v1/waitlist/${waitlist.id}/signup?flag=lookalike&fields=id`, { headers: viewer });
  expect(await contract.json(listed, "/waitlist/{id}/signup")).toEqual([{ id: twin.id }]);
  expect(await contract.json(await decide(request, "discount", waitlist.id, { emails: ["a.d.a+again@gmail.com"] }), review("discount"), "POST")).toEqual({ decided: 1, skipped: 0, ids: [twin.id] });
  expect(await referralState(twin.id)).toBe("discounted");
  expect((await eventTypes(waitlist.id)).at(-1)).toBe("signup.flag_discounted");
});

test("bad input: an unknown flag, an unknown decision, a bad body, the wrong role or key: clear errors, nothing changed", async ({ request }) => {
  const waitlist = await openWaitlist();
  await join(request, waitlist.id, "fake@mailinator.com");
  const before = { events: await eventTypes(waitlist.id), pending: await count("SELECT count(*) AS n FROM signup_flags WHERE waitlist_id = ? AND decision = 'pending'", waitlist.id) };

  const unknownFlag = await expectProblem(contract, await request.get(`/v1/waitlist/${waitlist.id}/signup?flag=spam`, { headers: viewer }), "/waitlist/{id}/signup", { status: 400, code: "invalid_parameter", parameter: "flag" });
  expect(unknownFlag.detail).toContain("disposable, lookalike, burst, referral_limit");
  const unknownDecision = await decide(request, "forgive", waitlist.id, { emails: ["fake@mailinator.com"] });
  expect(unknownDecision.status()).toBe(404);
  await expectProblem(contract, await decide(request, "approve", waitlist.id, { email: "fake@mailinator.com" }), review("approve"), { status: 400, code: "invalid_parameter", parameter: "emails" }, "POST");
  await expectProblem(contract, await decide(request, "approve", waitlist.id, { emails: [] }), review("approve"), { status: 400, code: "invalid_parameter", parameter: "emails" }, "POST");
  await expectProblem(contract, await decide(request, "approve", waitlist.id, { emails: ["nobody@example.com"] }), review("approve"), { status: 404, code: "not_found", parameter: "emails" }, "POST");
  await expectProblem(contract, await decide(request, "approve", waitlist.id, { emails: ["fake@mailinator.com"] }, viewer), review("approve"), { status: 403, code: "forbidden" }, "POST");
  await expectProblem(contract, await decide(request, "approve", waitlist.id, { emails: ["fake@mailinator.com"] }, joinKey), review("approve"), { status: 403, code: "forbidden" }, "POST");
  await expectProblem(contract, await decide(request, "approve", waitlist.id, { emails: ["fake@mailinator.com"] }, bearer("wl_not_a_key")), review("approve"), { status: 401, code: "unauthenticated" }, "POST");

  expect(await eventTypes(waitlist.id)).toEqual(before.events);
  expect(await count("SELECT count(*) AS n FROM signup_flags WHERE waitlist_id = ? AND decision = 'pending'", waitlist.id)).toBe(before.pending);
});
