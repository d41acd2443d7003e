import { expect, test } from "@playwright/test";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { eraseAddress } from "@/lib/domain/signups/erase";
import { createApiKey } from "@/lib/domain/keys/queries";
import { Contract, expectProblem } from "../support/api-contract";
import { bearer, nextLink, waitlistWithSignups } from "../support/api-fixtures";

// GET /v1/waitlist/{id}/events against the real server: the bodies webhooks carry, in keyset pages
// that never end (a poller follows Link), every answer checked against the served OpenAPI document.

interface FeedItem {
  id: string;
  type: string;
  timestamp: string;
  data: { waitlist_id: string; signup?: Record<string, unknown>; previous_status?: string };
}

let contract: Contract;
let viewer: Record<string, string>;

test.beforeAll(async ({ request }) => {
  contract = await Contract.load(request);
  viewer = bearer((await createApiKey({ name: "events feed viewer", roles: ["waitlist:view"] })).key);
});

test("pages through a waitlist's events in order, then polls the last position until new ones come", async ({ request }) => {
  const { waitlist, seeds } = await waitlistWithSignups(5);
  const other = await waitlistWithSignups(1);
  await applyStatusAction("cli", { action: "invite", selection: { waitlistId: waitlist.id, emails: seeds.slice(0, 3).map((seed) => seed.email) } });
  await applyStatusAction("cli", { action: "invite", selection: { waitlistId: other.waitlist.id, emails: [other.seeds[0]!.email] } });
  await applyStatusAction("cli", { action: "reject", selection: { waitlistId: waitlist.id, emails: [seeds[4]!.email] } });

  const first = await request.get(`/v1/waitlist/${waitlist.id}/events?limit=2`, { headers: viewer });
  expect(first.status()).toBe(200);
  const page1 = await contract.json<FeedItem[]>(first, "/waitlist/{id}/events");
  expect(page1.map((item) => [item.type, item.data.signup?.email])).toEqual([
    ["signup.invited", seeds[0]!.email],
    ["signup.invited", seeds[1]!.email],
  ]);
  expect(page1[0]).toMatchObject({ id: expect.stringMatching(/^evt_[0-9]+$/), data: { waitlist_id: waitlist.id, previous_status: "waiting", signup: { status: "invited", status_changed_at: page1[0]!.timestamp } } });
  expect(first.headers()["cache-control"]).toContain("no-store");

  const second = await request.get(nextLink(first)!, { headers: viewer });
  const page2 = await contract.json<FeedItem[]>(second, "/waitlist/{id}/events");
  expect(page2.map((item) => [item.type, item.data.signup?.email])).toEqual([
    ["signup.invited", seeds[2]!.email],
    ["signup.rejected", seeds[4]!.email],
  ]);
  const third = await request.get(nextLink(second)!, { headers: viewer });
  expect(await contract.json<FeedItem[]>(third, "/waitlist/{id}/events")).toEqual([]);
  // An empty page still says where to poll from: the same position.
  expect(nextLink(third)).toBe(nextLink(second));

  await eraseAddress("cli", { email: seeds[0]!.email, waitlist: waitlist.id });
  const later = await request.get(nextLink(third)!, { headers: viewer });
  const page4 = await contract.json<FeedItem[]>(later, "/waitlist/{id}/events");
  expect(page4.map((item) => [item.type, item.data.signup])).toEqual([["signup.erased", { id: page1[0]!.data.signup!.id }]]);
  // Read again from the start, the erased person's earlier event is only an id: no address survives.
  const again = await contract.json<FeedItem[]>(await request.get(`/v1/waitlist/${waitlist.id}/events`, { headers: viewer }), "/waitlist/{id}/events");
  expect(again[0]!.data.signup).toEqual({ id: page1[0]!.data.signup!.id });
  expect(JSON.stringify(again)).not.toContain(seeds[0]!.email);
  expect(again.map((item) => item.id)).toEqual([...page1, ...page2, ...page4].map((item) => item.id));
});

test("refuses bad parameters, a cursor of another feed, and an unknown waitlist", async ({ request }) => {
  const { waitlist } = await waitlistWithSignups(1);
  const other = await waitlistWithSignups(1);
  const otherCursor = new URL(nextLink(await request.get(`/v1/waitlist/${other.waitlist.id}/events?limit=1`, { headers: viewer }))!).searchParams.get("after")!;
  const cases: [string, string][] = [
    ["limit=0", "limit"],
    ["limit=1001", "limit"],
    ["cursor=abc", "cursor"],
    ["after=not-a-cursor", "after"],
    [`after=${otherCursor}`, "after"],
  ];
  for (const [query, parameter] of cases) {
    await expectProblem(contract, await request.get(`/v1/waitlist/${waitlist.id}/events?${query}`, { headers: viewer }), "/waitlist/{id}/events", { status: 400, code: "invalid_parameter", parameter });
  }
  await expectProblem(contract, await request.get("/v1/waitlist/00000000-0000-4000-8000-000000000000/events", { headers: viewer }), "/waitlist/{id}/events", { status: 404, code: "not_found" });
  await expectProblem(contract, await request.get(`/v1/waitlist/${waitlist.id}/events`), "/waitlist/{id}/events", { status: 401, code: "unauthenticated" });
  const noRole = bearer((await createApiKey({ name: "events feed no role", roles: [] })).key);
  await expectProblem(contract, await request.get(`/v1/waitlist/${waitlist.id}/events`, { headers: noRole }), "/waitlist/{id}/events", { status: 403, code: "forbidden" });
});
