import { expect, test, type APIRequestContext } from "@playwright/test";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { Contract } from "../support/api-contract";
import { bearer, makeKeys, nextLink } from "../support/api-fixtures";

interface WaitlistBody {
  id: string;
  name: string;
  website: string;
}

let contract: Contract;
let auth: Record<string, string>;

test.beforeAll(async ({ request }) => {
  contract = await Contract.load(request);
  auth = bearer((await makeKeys()).viewer);
});

/** Follows Link headers from `first` and returns every item and the number of pages. */
async function walk(request: APIRequestContext, first: string) {
  const items: WaitlistBody[] = [];
  let pages = 0;
  for (let url: string | null = first; url; pages++) {
    const response = await request.get(url, { headers: auth });
    expect(response.status()).toBe(200);
    items.push(...(await contract.json<WaitlistBody[]>(response, "/waitlist")));
    url = nextLink(response);
    if (url) expect(new URL(url).origin, "the Link is absolute, on the request's origin").toBe(new URL(response.url()).origin);
  }
  return { items, pages };
}

test("GET /v1/waitlist returns every waitlist with exactly id, name and website, in creation order", async ({ request }) => {
  const created = [await createWaitlist({ name: "Alpha list", website: "https://alpha.example.com" }), await createWaitlist({ name: "Beta list", website: "http://beta.example.com/join?x=1" })];
  const response = await request.get("/v1/waitlist", { headers: auth });
  expect(response.status()).toBe(200);
  expect(response.headers()["cache-control"]).toBe("private, no-cache");
  expect(response.headers()["link"]).toBeUndefined();
  const items = await contract.json<WaitlistBody[]>(response, "/waitlist");
  for (const item of items) {
    expect(Object.keys(item).sort()).toEqual(["id", "name", "website"]);
    expect(item.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  }
  const ours = items.filter((item) => created.some((row) => row.id === item.id));
  expect(ours).toEqual(created.map(({ id, name, website }) => ({ id, name, website })));
});

test("GET /v1/waitlist/{id} returns exactly one waitlist object", async ({ request }) => {
  const row = await createWaitlist({ name: "  Gamma  ", website: "https://gamma.example.com" });
  const response = await request.get(`/v1/waitlist/${row.id}`, { headers: auth });
  expect(response.status()).toBe(200);
  expect(response.headers()["link"]).toBeUndefined();
  expect(await contract.json(response, "/waitlist/{id}")).toEqual({ id: row.id, name: "Gamma", website: "https://gamma.example.com/" });
});

test("paging through waitlists returns every waitlist exactly once, in the order of the full list", async ({ request }) => {
  // Created within the same milliseconds, so ties on created_at are broken by id across page boundaries.
  for (let i = 0; i < 12; i++) await createWaitlist({ name: `Paged ${i}`, website: "https://example.com" });
  const all = await contract.json<WaitlistBody[]>(await request.get("/v1/waitlist", { headers: auth }), "/waitlist");
  expect(all.length).toBeGreaterThan(12);
  for (const limit of [1, 5, all.length, 1000]) {
    const { items, pages } = await walk(request, `/v1/waitlist?limit=${limit}`);
    expect(items.map((item) => item.id), `limit=${limit}`).toEqual(all.map((item) => item.id));
    expect(pages).toBe(Math.max(1, Math.ceil(all.length / limit)));
  }
});

test("the Link header keeps the request's origin and its other parameters", async ({ request }) => {
  const response = await request.get("/v1/waitlist?limit=1", { headers: { ...auth, "X-Forwarded-Host": "api.example.com", "X-Forwarded-Proto": "https" } });
  expect(response.headers()["link"]).toMatch(/^<https:\/\/api\.example\.com\/v1\/waitlist\?limit=1&cursor=[A-Za-z0-9_-]+>; rel="next"$/);
  await contract.check(response, "/waitlist");
});
