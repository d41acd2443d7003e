import { expect, test, type APIRequestContext } from "@playwright/test";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { createApiKey } from "@/lib/domain/keys/queries";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { recountFunnel, type RecountRow } from "@/tests/support/funnel-recount";
import { Contract, expectProblem } from "../support/api-contract";
import { bearer } from "../support/api-fixtures";
import { rawSql } from "../support/raw-sql";

// The funnel against the real server: sources given at join (validated, stored, filters, opt-in
// fields), join-page views counted by the server, and GET /v1/waitlist/{id}/stats equal to a recount
// from the rows; malformed ranges and unknown parameters refused.

interface Stats {
  totals: Record<string, number>;
  referral_factor: number | null;
  median_hours: { join_to_invite: number | null; invite_to_complete: number | null };
  days: ({ day: string; views: number } & Record<string, number | string>)[];
  cohorts: ({ week: string; rates: unknown } & Record<string, unknown>)[];
  sources: ({ source: string | null; rates: unknown } & Record<string, unknown>)[];
}

const STATS = "/waitlist/{id}/stats" as const;
let contract: Contract;
let joinKey: Record<string, string>;
let admin: Record<string, string>;
let viewer: Record<string, string>;

test.beforeAll(async ({ request }) => {
  contract = await Contract.load(request);
  joinKey = bearer((await createApiKey({ name: "funnel joiner", roles: ["waitlist:join"] })).key);
  admin = bearer((await createApiKey({ name: "funnel admin", roles: ["waitlist:admin"] })).key);
  viewer = bearer((await createApiKey({ name: "funnel viewer", roles: ["waitlist:view"] })).key);
});

async function openWaitlist(tag: string) {
  const waitlist = await createWaitlist({ name: `Funnel ${tag} ${Date.now()}`, website: "https://example.com/launch" });
  await updateJoinSettings(waitlist.id, { joining: "open", challenge: false }, "cli");
  return waitlist;
}

const join = (request: APIRequestContext, waitlistId: string, body: Record<string, unknown>) => request.post(`/v1/waitlist/${waitlistId}/signup`, { data: body, headers: joinKey });

async function rowsOf(waitlistId: string): Promise<RecountRow[]> {
  const rows = await rawSql.all<Omit<RecountRow, "verified" | "referral"> & { verified: number; referral: number }>(
    "SELECT created_at AS createdAt, verified, referral, coalesce(utm_source, referrer) AS source, invited_at AS invitedAt, completed_at AS completedAt, expired_at AS expiredAt FROM signups WHERE waitlist_id = ?",
    waitlistId,
  );
  return rows.map((row) => ({ ...row, verified: row.verified === 1, referral: row.referral === 1 }));
}

test("sources given at join are stored, filter the list and show with fields=; bad ones are refused and change nothing", async ({ request }) => {
  const waitlist = await openWaitlist("sources");
  const created = await join(request, waitlist.id, { email: "ann@example.com", utm_source: " newsletter ", utm_medium: "email", utm_campaign: "launch", referrer: "https://News.YCombinator.com/item?id=1" });
  expect(created.status()).toBe(201);
  expect(Object.keys(await contract.json<object>(created, "/waitlist/{id}/signup", "POST"))).not.toContain("utm_source");
  expect((await join(request, waitlist.id, { email: "bob@example.com", utm_source: "x" })).status()).toBe(201);

  for (const [field, value] of [["utm_source", "a\nb"], ["utm_campaign", "c".repeat(101)], ["referrer", `x\u202e`], ["utm_medium", 3]] as const) {
    await expectProblem(contract, await join(request, waitlist.id, { email: "carl@example.com", [field]: value }), "/waitlist/{id}/signup", { status: 400, code: "invalid_parameter", parameter: field }, "POST");
  }
  expect(await rowsOf(waitlist.id)).toHaveLength(2);

  const list = await request.get(`/v1/waitlist/${waitlist.id}/signup?utm_source=newsletter&fields=email,utm_source,utm_medium,utm_campaign,referrer`, { headers: viewer });
  expect(await contract.json(list, "/waitlist/{id}/signup")).toEqual([
    { email: "ann@example.com", utm_source: "newsletter", utm_medium: "email", utm_campaign: "launch", referrer: "news.ycombinator.com" },
  ]);
  const byReferrer = await request.get(`/v1/waitlist/${waitlist.id}/signup?referrer=news.ycombinator.com`, { headers: viewer });
  expect(await contract.json(byReferrer, "/waitlist/{id}/signup")).toEqual([{ email: "ann@example.com", verified: false, referral: false, custom_inputs: [] }]);
  await expectProblem(contract, await request.get(`/v1/waitlist/${waitlist.id}/signup?utm_campaign=`, { headers: viewer }), "/waitlist/{id}/signup", { status: 400, code: "invalid_parameter", parameter: "utm_campaign" });
});

test("GET /v1/waitlist/{id}/stats equals a recount from the rows; the join page's views are counted by the server", async ({ request }) => {
  const waitlist = await openWaitlist("stats");
  const sources = [{ utm_source: "newsletter", utm_campaign: "launch" }, { referrer: "twitter.com" }, {}];
  let code: string | undefined;
  for (let index = 0; index < 12; index++) {
    const response = await join(request, waitlist.id, { email: `p${index}@example.com`, ...sources[index % 3], ...(index % 4 === 3 && code ? { referral_code: code } : {}) });
    expect(response.status()).toBe(201);
    code ??= ((await response.json()) as { referral_code: string }).referral_code;
  }
  await rawSql.run("UPDATE signups SET verified = 1 WHERE waitlist_id = ? AND id % 2 = 0", waitlist.id);
  const act = (action: string, emails: string[]) => request.post(`/v1/waitlist/${waitlist.id}/signup/${action}`, { data: { emails }, headers: admin });
  expect((await act("invite", ["p0@example.com", "p1@example.com", "p2@example.com", "p3@example.com", "p4@example.com"])).status()).toBe(200);
  expect((await act("complete", ["p0@example.com", "p1@example.com"])).status()).toBe(200);
  const { id: expiredId } = (await rawSql.get<{ id: number }>("SELECT id FROM signups WHERE email = 'p4@example.com' AND waitlist_id = ?", waitlist.id))!;
  await rawSql.run("INSERT INTO events (type, waitlist_id, signup_id, created_at, payload) VALUES ('signup.invitation_expired', ?, ?, ?, '{}')", waitlist.id, expiredId, Date.now());

  // Three views of the join page, counted in memory and written within seconds.
  for (let view = 0; view < 3; view++) expect((await request.get(`/join/${waitlist.id}?utm_source=newsletter`)).status()).toBe(200);
  const stats = async () => contract.json<Stats>(await request.get(`/v1/waitlist/${waitlist.id}/stats`, { headers: viewer }), STATS);
  await expect.poll(async () => (await stats()).totals.views, { timeout: 15_000, intervals: [500] }).toBe(3);

  const answer = await stats();
  const expected = recountFunnel(await rowsOf(waitlist.id));
  const { views, ...totals } = answer.totals;
  expect(views).toBe(3);
  expect(totals).toEqual(expected.totals);
  expect(totals).toMatchObject({ joined: 12, verified: 6, invited: 5, completed: 2, expired: 1 });
  expect(answer.referral_factor).toBe(expected.referral_factor);
  expect(answer.median_hours).toEqual(expected.median_hours);
  expect(answer.days.map(({ views: _views, ...day }) => day)).toEqual(expected.days);
  expect(answer.cohorts.map(({ rates: _rates, ...cohort }) => cohort)).toEqual(expected.cohorts);
  expect(Object.fromEntries(answer.sources.map(({ source, rates: _rates, ...counts }) => [source ?? "(none)", counts]))).toEqual(expected.sources);

  // The same numbers for a range of days that holds today; none for a range before it.
  const today = new Date().toISOString().slice(0, 10);
  const ranged = await contract.json<Stats>(await request.get(`/v1/waitlist/${waitlist.id}/stats?from=${today}&to=${today}`, { headers: viewer }), STATS);
  expect(ranged.totals).toEqual(answer.totals);
  const before = await contract.json<Stats>(await request.get(`/v1/waitlist/${waitlist.id}/stats?to=2020-01-31`, { headers: admin }), STATS);
  expect(before.totals).toEqual({ joined: 0, referred: 0, verified: 0, invited: 0, completed: 0, expired: 0, views: 0 });
});

test("stats refuses malformed dates, an inverted range, unknown or repeated parameters, other roles and unknown lists", async ({ request }) => {
  const waitlist = await openWaitlist("refusals");
  const get = (query: string, headers = viewer) => request.get(`/v1/waitlist/${waitlist.id}/stats${query}`, { headers });
  for (const [query, parameter] of [
    ["?from=2026-13-01", "from"],
    ["?from=2026-02-30", "from"],
    ["?to=2026-10-01T00:00:00Z", "to"],
    ["?to=yesterday", "to"],
    ["?from=2026-10-02&to=2026-10-01", "to"],
    ["?since=2026-10-01", "since"],
    ["?from=2026-10-01&from=2026-10-02", "from"],
  ] as const) {
    await expectProblem(contract, await get(query), STATS, { status: 400, code: "invalid_parameter", parameter });
  }
  await expectProblem(contract, await get("", joinKey), STATS, { status: 403, code: "forbidden" });
  await expectProblem(contract, await request.get("/v1/waitlist/00000000-0000-4000-8000-000000000000/stats", { headers: viewer }), STATS, { status: 404, code: "not_found" });
  expect((await get("?from=2026-10-01&to=2026-10-01")).status()).toBe(200);
});
