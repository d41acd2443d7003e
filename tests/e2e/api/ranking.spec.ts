import { expect, test, type APIRequestContext, type APIResponse } from "@playwright/test";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { createApiKey } from "@/lib/domain/keys/queries";
import { setRankingRule } from "@/lib/domain/ranking/apply";
import { rankingRuleSchema } from "@/lib/domain/ranking/rule";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { Contract, expectProblem } from "../support/api-contract";
import { bearer } from "../support/api-fixtures";

// Ranking rules over /v1 against the real server: a counted referral moves its referrer at once in
// the join answer's `position` and in GET …/signup?sort=position (keyset-paged), "invite the next N"
// takes the line's first, and bad sort parameters are 400s that change nothing.

interface Joined {
  email: string;
  id: string;
  position: number | null;
  referral_code: string;
}

const TEMPLATE = "/waitlist/{id}/signup" as const;
let contract: Contract;
let joinKey: Record<string, string>;
let admin: Record<string, string>;
let viewer: Record<string, string>;

test.beforeAll(async ({ request }) => {
  contract = await Contract.load(request);
  joinKey = bearer((await createApiKey({ name: "ranking joiner", roles: ["waitlist:join"] })).key);
  admin = bearer((await createApiKey({ name: "ranking admin", roles: ["waitlist:admin"] })).key);
  viewer = bearer((await createApiKey({ name: "ranking viewer", roles: ["waitlist:view"] })).key);
});

async function rankedWaitlist(rule: string) {
  const waitlist = await createWaitlist({ name: `Ranking ${rule} ${Date.now()}`, website: "https://example.com/launch" });
  await updateJoinSettings(waitlist.id, { joining: "open" }, "cli");
  await setRankingRule(waitlist.id, rankingRuleSchema.parse(rule), "cli");
  return waitlist;
}

async function join(request: APIRequestContext, waitlistId: string, email: string, referralCode?: string): Promise<Joined> {
  const response = await request.post(`/v1/waitlist/${waitlistId}/signup`, { data: { email, ...(referralCode && { referral_code: referralCode }) }, headers: joinKey });
  expect(response.status()).toBe(201);
  return contract.json<Joined>(response, TEMPLATE, "POST");
}

async function line(request: APIRequestContext, waitlistId: string, query = ""): Promise<string[]> {
  const response = await request.get(`/v1/waitlist/${waitlistId}/signup?sort=position${query}`, { headers: viewer });
  expect(response.status()).toBe(200);
  return (await contract.json<{ email: string }[]>(response, TEMPLATE)).map((signup) => signup.email);
}

test("a counted referral moves its referrer up N places at once: the friend's join answer, the line, its pages and 'invite the next N'", async ({ request }) => {
  const waitlist = await rankedWaitlist("referrals:3");
  const people: Joined[] = [];
  for (let index = 0; index < 8; index++) people.push(await join(request, waitlist.id, `p${index}@example.com`));
  expect(people.map((person) => person.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  const friend = await join(request, waitlist.id, "friend@example.com", people[6]!.referral_code);
  expect(friend.position).toBe(9);
  const expected = ["p0", "p1", "p2", "p6", "p3", "p4", "p5", "p7", "friend"].map((name) => `${name}@example.com`);
  expect(await line(request, waitlist.id)).toEqual(expected);

  // Keyset pages of 2 walk the same line, each once.
  const paged: string[] = [];
  let url: string | undefined = `/v1/waitlist/${waitlist.id}/signup?sort=position&limit=2&fields=email,id`;
  while (url) {
    const response: APIResponse = await request.get(url, { headers: viewer });
    paged.push(...(await contract.json<{ email: string }[]>(response, TEMPLATE)).map((signup) => signup.email));
    url = /<([^>]+)>; rel="next"/.exec(response.headers().link ?? "")?.[1];
  }
  expect(paged).toEqual(expected);

  // "Invite the next 4": the line's first four, p6 among them.
  const invited = await request.post(`/v1/waitlist/${waitlist.id}/signup/invite?limit=4`, { headers: admin });
  expect(invited.status()).toBe(200);
  const { signups } = (await invited.json()) as { signups: { email: string }[] };
  expect(signups.map((signup) => signup.email).sort()).toEqual(expected.slice(0, 4).sort());
  expect(await line(request, waitlist.id)).toEqual(expected.slice(4));
  expect(await line(request, waitlist.id, "&status=waiting")).toEqual(expected.slice(4));
});

test("under points a referral is worth hours of waiting; without a rule the line is the order of joining", async ({ request }) => {
  const points = await rankedWaitlist("points:1");
  const people: Joined[] = [];
  for (let index = 0; index < 4; index++) people.push(await join(request, points.id, `q${index}@example.com`));
  await join(request, points.id, "friend@example.com", people[3]!.referral_code);
  expect((await line(request, points.id))[0]).toBe("q3@example.com");

  const plain = await rankedWaitlist("first-come");
  const first = await join(request, plain.id, "a@example.com");
  await join(request, plain.id, "b@example.com", first.referral_code);
  expect(await line(request, plain.id)).toEqual(["a@example.com", "b@example.com"]);
});

test("bad sort parameters are 400s naming the parameter, and a cursor of one order is refused by the other", async ({ request }) => {
  const waitlist = await rankedWaitlist("referrals:1");
  for (let index = 0; index < 3; index++) await join(request, waitlist.id, `r${index}@example.com`);
  const get = (query: string) => request.get(`/v1/waitlist/${waitlist.id}/signup?${query}`, { headers: viewer });
  await expectProblem(contract, await get("sort=place"), TEMPLATE, { status: 400, code: "invalid_parameter", parameter: "sort" });
  await expectProblem(contract, await get("sort=position&status=invited"), TEMPLATE, { status: 400, code: "invalid_parameter", parameter: "status" });
  await expectProblem(contract, await get("sort=position&sort=created_at"), TEMPLATE, { status: 400, code: "invalid_parameter", parameter: "sort" });
  const byCreation = await get("limit=1");
  const cursor = new URL(/<([^>]+)>/.exec(byCreation.headers().link!)![1]!).searchParams.get("cursor")!;
  await expectProblem(contract, await get(`sort=position&limit=1&cursor=${cursor}`), TEMPLATE, { status: 400, code: "invalid_parameter", parameter: "cursor" });
  const byPlace = await get("sort=position&limit=1");
  const lineCursor = new URL(/<([^>]+)>/.exec(byPlace.headers().link!)![1]!).searchParams.get("cursor")!;
  await expectProblem(contract, await get(`limit=1&cursor=${lineCursor}`), TEMPLATE, { status: 400, code: "invalid_parameter", parameter: "cursor" });
  await expectProblem(contract, await get(`sort=position&verified=true&limit=1&cursor=${lineCursor}`), TEMPLATE, { status: 400, code: "invalid_parameter", parameter: "cursor" });
});
