import { expect, test, type APIRequestContext } from "@playwright/test";
import { updateInvitationEmail } from "@/lib/domain/emails/invitation";
import { signupEvents } from "@/lib/domain/events";
import { mintInviteToken } from "@/lib/domain/invitations/token";
import { createApiKey } from "@/lib/domain/keys/queries";
import { getSignup } from "@/lib/domain/signups/queries";
import { signLinkToken } from "@/lib/domain/verification/link-token";
import { Contract, expectProblem } from "../support/api-contract";
import { bearer, waitlistWithSignups } from "../support/api-fixtures";
import { rawSql } from "../support/raw-sql";
import { eventually } from "../support/webhook-receiver";

// GET /v1/invitations/{token} and POST /v1/invitations/{token}/redeem against the real server: the
// invitation email rendered at fan-out (kept as "not sent" without SMTP) carries {{invite.url}},
// whose token a waitlist:redeem key looks at and redeems once; every refusal is a documented problem.
// Expiry without sleeps: a token signed (by the server's key, in its database) with an expiry already past.

const SIGNUP_URL = "https://product.example/signup";

let contract: Contract;
let admin: Record<string, string>;
let redeemer: Record<string, string>;
let viewer: Record<string, string>;
let joiner: Record<string, string>;

test.beforeAll(async ({ request }) => {
  contract = await Contract.load(request);
  admin = bearer((await createApiKey({ name: "invitations admin", roles: ["waitlist:admin"] })).key);
  redeemer = bearer((await createApiKey({ name: "invitations product", roles: ["waitlist:redeem"] })).key);
  viewer = bearer((await createApiKey({ name: "invitations viewer", roles: ["waitlist:view"] })).key);
  joiner = bearer((await createApiKey({ name: "invitations joiner", roles: ["waitlist:join"] })).key);
});

interface Invitation {
  state: "valid" | "redeemed";
  waitlist_id: string;
  signup: { email: string; verified: boolean; referral: boolean; custom_inputs: unknown[]; status: string };
  invited_at: string;
  expires_at: string;
}

/** A waitlist sending invitation emails with invite links, and `n` signups. */
async function invitingWaitlist(n = 6) {
  const fixture = await waitlistWithSignups(n);
  await updateInvitationEmail({ keyId: "tests", keyName: "tests" }, fixture.waitlist.id, { enabled: true, body: "You're in: {{invite.url}}\nYour page: {{person.url}}\n", inviteUrl: SIGNUP_URL, inviteExpiryDays: 10 });
  return fixture;
}

async function invite(request: APIRequestContext, waitlistId: string, email: string, action = "invite") {
  const response = await request.post(`/v1/waitlist/${waitlistId}/signup/${action}`, { headers: admin, data: { emails: [email] } });
  expect(response.status()).toBe(200);
}

const signupIdOf = async (waitlistId: string, email: string) => (await rawSql.value<number>("SELECT id FROM signups WHERE waitlist_id = ? AND email = ?", waitlistId, email))!;

/** The newest invitation email to `email`, once the server has fanned its event out. */
async function invitationEmail(waitlistId: string, email: string, after = 0): Promise<{ id: number; body: string; state: string }> {
  const find = () => rawSql.get<{ id: number; body: string; state: string }>("SELECT id, body, state FROM deliveries WHERE waitlist_id = ? AND recipient = ? AND event_type = 'signup.invited' AND id > ? ORDER BY id DESC", waitlistId, email, after);
  await eventually(`the invitation email to ${email}`, async () => (await find()) !== undefined);
  return (await find())!;
}

const tokenIn = (body: string) => {
  const link = new RegExp(`${SIGNUP_URL.replace(/[.?]/g, "\\$&")}\\?invite=\\S+`).exec(body);
  expect(link, body).not.toBeNull();
  return new URL(link![0]).searchParams.get("invite")!;
};

const look = (request: APIRequestContext, token: string, headers = redeemer) => request.get(`/v1/invitations/${encodeURIComponent(token)}`, { headers });
const redeem = (request: APIRequestContext, token: string, headers = redeemer) => request.post(`/v1/invitations/${encodeURIComponent(token)}/redeem`, { headers });

test("the invitation email's {{invite.url}} carries a token the product looks at and redeems once: completed, one signup.completed", async ({ request }) => {
  const { waitlist, seeds } = await invitingWaitlist();
  const person = seeds[0]!;
  await invite(request, waitlist.id, person.email);
  const email = await invitationEmail(waitlist.id, person.email);
  expect(email.state).toBe("not_sent");
  expect(email.body).toMatch(new RegExp(`Your page: http://[^/]+/join/${waitlist.id}/me\\?t=`));
  const token = tokenIn(email.body);
  const signupId = await signupIdOf(waitlist.id, person.email);
  const invitedAt = (await getSignup(waitlist.id, signupId))!.statusChangedAt!;

  const looked = await contract.json<Invitation>(await look(request, token), "/invitations/{token}");
  expect(looked).toEqual({
    state: "valid",
    waitlist_id: waitlist.id,
    signup: { email: person.email, verified: person.verified, referral: person.referral, custom_inputs: person.customInputs, status: "invited" },
    invited_at: invitedAt.toISOString(),
    expires_at: new Date(Math.floor((invitedAt.getTime() + 10 * 86_400_000) / 1000) * 1000).toISOString(),
  });

  const first = await redeem(request, token);
  expect(first.status()).toBe(200);
  const firstText = await contract.check(first, "/invitations/{token}/redeem", "POST");
  expect(JSON.parse(firstText)).toEqual({ ...looked, state: "redeemed", signup: { ...looked.signup, status: "completed" } });
  expect((await getSignup(waitlist.id, signupId))!.status).toBe("completed");

  const second = await redeem(request, token);
  expect(second.status()).toBe(200);
  expect(await contract.check(second, "/invitations/{token}/redeem", "POST")).toBe(firstText);
  expect((await signupEvents(signupId)).filter((event) => event.type === "signup.completed")).toHaveLength(1);
  expect(await rawSql.value("SELECT count(*) FROM audit_log WHERE action = 'signups.complete' AND target = ?", waitlist.id)).toBe(1);
  // Looked at after: redeemed, the same object.
  expect(await contract.json<Invitation>(await look(request, token), "/invitations/{token}")).toEqual(JSON.parse(firstText));
  // An admin key may do the same; it includes waitlist:redeem.
  expect((await look(request, token, admin)).status()).toBe(200);
});

test("expired, withdrawn, re-invited, forged, unknown and malformed tokens are problems that change nothing", async ({ request }) => {
  const { waitlist, seeds } = await invitingWaitlist();
  const [expiring, withdrawn] = [seeds[1]!, seeds[2]!];
  await invite(request, waitlist.id, expiring.email);
  const expiringId = await signupIdOf(waitlist.id, expiring.email);
  const invitedAt = (await getSignup(waitlist.id, expiringId))!.statusChangedAt!.getTime();
  // Signed with the server's own key, bound to the real invitation, good for one second after it: long past.
  const expired = await signLinkToken({ purpose: "invite", waitlistId: waitlist.id, signupId: expiringId, boundTo: invitedAt, expiresAt: new Date(invitedAt - 1000) });
  for (const answer of [await look(request, expired), await redeem(request, expired)]) {
    const problem = await expectProblem(contract, answer, answer.url().endsWith("/redeem") ? "/invitations/{token}/redeem" : "/invitations/{token}", { status: 409, code: "conflict" }, answer.url().endsWith("/redeem") ? "POST" : "GET");
    expect(problem.detail).toBe("This invitation has expired: the waitlist's admin can invite the person again.");
  }
  expect((await getSignup(waitlist.id, expiringId))!.status).toBe("invited");

  await invite(request, waitlist.id, withdrawn.email);
  const oldToken = tokenIn((await invitationEmail(waitlist.id, withdrawn.email)).body);
  await invite(request, waitlist.id, withdrawn.email, "withdraw");
  const refused = await expectProblem(contract, await redeem(request, oldToken), "/invitations/{token}/redeem", { status: 409, code: "conflict" }, "POST");
  expect(refused.detail).toBe("This invitation was withdrawn or replaced by a newer one: the signup is waiting now.");
  const first = await invitationEmail(waitlist.id, withdrawn.email);
  await invite(request, waitlist.id, withdrawn.email);
  const newToken = tokenIn((await invitationEmail(waitlist.id, withdrawn.email, first.id)).body);
  expect(newToken).not.toBe(oldToken);
  await expectProblem(contract, await look(request, oldToken), "/invitations/{token}", { status: 409, code: "conflict" });
  expect((await contract.json<Invitation>(await look(request, newToken), "/invitations/{token}")).state).toBe("valid");

  const withdrawnId = await signupIdOf(waitlist.id, withdrawn.email);
  const [payload, signature] = newToken.split(".");
  const forged = `${Buffer.from(Buffer.from(payload!, "base64url").toString().replace(`.${withdrawnId}.`, `.${expiringId}.`)).toString("base64url")}.${signature}`;
  const unknown = await mintInviteToken(waitlist.id, 987_654_321, Date.now(), 14);
  for (const token of [forged, `${payload}.${signature!.slice(0, -4)}AAAA`, unknown]) {
    const problem = await expectProblem(contract, await redeem(request, token), "/invitations/{token}/redeem", { status: 404, code: "not_found" }, "POST");
    expect(problem.detail).toBe("No invitation has this token: it was altered, or its signup was erased.");
    await expectProblem(contract, await look(request, token), "/invitations/{token}", { status: 404, code: "not_found" });
  }
  for (const token of ["not-a-token", `${payload}.${signature}.extra`, "x".repeat(390)]) {
    const problem = await expectProblem(contract, await redeem(request, token), "/invitations/{token}/redeem", { status: 400, code: "invalid_parameter", parameter: "token" }, "POST");
    expect(problem.detail).toMatch(/^The token is not an invite token/);
  }
  await expectProblem(contract, await request.get(`/v1/invitations/${newToken}?x=1`, { headers: redeemer }), "/invitations/{token}", { status: 400, code: "invalid_parameter", parameter: "x" });
  expect([(await getSignup(waitlist.id, expiringId))!.status, (await getSignup(waitlist.id, withdrawnId))!.status]).toEqual(["invited", "invited"]);
  expect((await signupEvents(withdrawnId)).filter((event) => event.type === "signup.completed")).toHaveLength(0);
});

test("waitlist:redeem can do only this (and complete by address); view and join keys get 403, no key 401", async ({ request }) => {
  const { waitlist, seeds } = await invitingWaitlist();
  await invite(request, waitlist.id, seeds[3]!.email);
  const token = tokenIn((await invitationEmail(waitlist.id, seeds[3]!.email)).body);
  for (const headers of [viewer, joiner]) {
    const problem = await expectProblem(contract, await redeem(request, token, headers), "/invitations/{token}/redeem", { status: 403, code: "forbidden" }, "POST");
    expect(problem.detail).toBe('This API key lacks the role "waitlist:redeem".');
    await expectProblem(contract, await look(request, token, headers), "/invitations/{token}", { status: 403, code: "forbidden" });
  }
  await expectProblem(contract, await redeem(request, token, {}), "/invitations/{token}/redeem", { status: 401, code: "unauthenticated" }, "POST");
  await expectProblem(contract, await look(request, token, {}), "/invitations/{token}", { status: 401, code: "unauthenticated" });
  expect((await getSignup(waitlist.id, await signupIdOf(waitlist.id, seeds[3]!.email)))!.status).toBe("invited");

  // Nothing else: reading the API, joining, other status actions.
  expect((await request.get(`/v1/waitlist/${waitlist.id}/signup`, { headers: redeemer })).status()).toBe(403);
  expect((await request.post(`/v1/waitlist/${waitlist.id}/signup`, { headers: redeemer, data: { email: "new@example.com" } })).status()).toBe(403);
  expect((await request.post(`/v1/waitlist/${waitlist.id}/signup/invite`, { headers: redeemer, data: { emails: [seeds[4]!.email] } })).status()).toBe(403);
  // Complete by address, for products that match on it; never a filter's first N.
  const byFilter = await request.post(`/v1/waitlist/${waitlist.id}/signup/complete?limit=10`, { headers: redeemer });
  const problem = await expectProblem(contract, byFilter, "/waitlist/{id}/signup/complete", { status: 403, code: "forbidden" }, "POST");
  expect(problem.detail).toMatch(/name the signups by address/);
  const byAddress = await request.post(`/v1/waitlist/${waitlist.id}/signup/complete`, { headers: redeemer, data: { emails: [seeds[3]!.email] } });
  expect(await contract.json(byAddress, "/waitlist/{id}/signup/complete", "POST")).toMatchObject({ changed: 1, skipped: 0 });
  // Completed by address while invited by this token: the token reads redeemed.
  expect((await contract.json<Invitation>(await look(request, token), "/invitations/{token}")).state).toBe("redeemed");
});
