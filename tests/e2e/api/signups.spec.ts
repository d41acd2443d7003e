import { get, type IncomingMessage } from "node:http";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { createApiKey } from "@/lib/domain/keys/queries";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { Contract } from "../support/api-contract";
import { bearer, insertSignups, makeKeys, makeSignups, nextLink, waitlistWithSignups, type SignupSeed } from "../support/api-fixtures";

interface SignupBody {
  email: string;
  verified: boolean;
  referral: boolean;
  custom_inputs: Record<string, unknown>[];
}

let contract: Contract;
let auth: Record<string, string>;

test.beforeAll(async ({ request }) => {
  contract = await Contract.load(request);
  auth = bearer((await makeKeys()).viewer);
});

const toBody = (seed: SignupSeed): SignupBody => ({ email: seed.email, verified: seed.verified, referral: seed.referral, custom_inputs: seed.customInputs });

const FILTERS: { query: string; keep: (seed: SignupSeed) => boolean }[] = [
  { query: "", keep: () => true },
  { query: "verified=true", keep: (seed) => seed.verified },
  { query: "verified=false", keep: (seed) => !seed.verified },
  { query: "referral=true", keep: (seed) => seed.referral },
  { query: "referral=false", keep: (seed) => !seed.referral },
  { query: "verified=true&referral=true", keep: (seed) => seed.verified && seed.referral },
  { query: "referral=false&verified=false", keep: (seed) => !seed.verified && !seed.referral },
];

async function fullList(request: APIRequestContext, url: string): Promise<{ text: string; items: SignupBody[] }> {
  const response = await request.get(url, { headers: auth });
  expect(response.status()).toBe(200);
  expect(response.headers()["link"]).toBeUndefined();
  const text = await contract.check(response, "/waitlist/{id}/signup");
  return { text, items: JSON.parse(text) as SignupBody[] };
}

async function walk(request: APIRequestContext, first: string) {
  const items: SignupBody[] = [];
  let pages = 0;
  for (let url: string | null = first; url; pages++) {
    const response = await request.get(url, { headers: auth });
    expect(response.status()).toBe(200);
    const page = await contract.json<SignupBody[]>(response, "/waitlist/{id}/signup");
    items.push(...page);
    url = nextLink(response);
    if (url) {
      const nextParams = new URL(url).searchParams;
      const params = new URL(response.url()).searchParams;
      for (const name of ["limit", "verified", "referral"]) expect(nextParams.get(name), name).toBe(params.get(name));
      expect(page.length).toBe(Number(params.get("limit")));
    }
  }
  return { items, pages };
}

test("GET /v1/waitlist/{id}/signup returns exactly the four fields with JSON types, in creation order", async ({ request }) => {
  const { waitlist, seeds } = await waitlistWithSignups(30);
  const { items } = await fullList(request, `/v1/waitlist/${waitlist.id}/signup`);
  expect(items).toEqual(seeds.map(toBody));
  for (const item of items) {
    expect(Object.keys(item)).toEqual(["email", "verified", "referral", "custom_inputs"]);
    expect(typeof item.verified).toBe("boolean");
    expect(typeof item.referral).toBe("boolean");
    expect(Array.isArray(item.custom_inputs)).toBe(true);
  }
  expect(items.some((item) => item.custom_inputs.length === 0)).toBe(true);
});

test("an existing waitlist without signups is 200 [] (full list and page)", async ({ request }) => {
  const waitlist = await createWaitlist({ name: "Empty", website: "https://example.com" });
  expect((await fullList(request, `/v1/waitlist/${waitlist.id}/signup`)).text).toBe("[]");
  const page = await request.get(`/v1/waitlist/${waitlist.id}/signup?limit=10&verified=true`, { headers: auth });
  expect(await contract.check(page, "/waitlist/{id}/signup")).toBe("[]");
  expect(page.headers()["link"]).toBeUndefined();
});

test("filters select the same signups in full lists and in page walks, each exactly once", async ({ request }) => {
  const { waitlist, seeds } = await waitlistWithSignups(47);
  // Later signups created earlier than existing ones still sort by created_at, then id.
  const late = makeSignups(4, `late-${waitlist.id.slice(0, 6)}`, Date.UTC(2025, 0, 1));
  await insertSignups(waitlist.id, late);
  const ordered = [...late, ...seeds];
  for (const { query, keep } of FILTERS) {
    const expected = ordered.filter(keep).map(toBody);
    const { items } = await fullList(request, `/v1/waitlist/${waitlist.id}/signup${query ? `?${query}` : ""}`);
    expect(items, query).toEqual(expected);
    for (const limit of [1, 4, 10]) {
      const { items: walked, pages } = await walk(request, `/v1/waitlist/${waitlist.id}/signup?${query ? `${query}&` : ""}limit=${limit}`);
      expect(walked, `${query} limit=${limit}`).toEqual(expected);
      expect(new Set(walked.map((item) => item.email)).size).toBe(walked.length);
      expect(pages).toBe(Math.max(1, Math.ceil(expected.length / limit)));
    }
  }
});

test("signups created during a page walk appear once, at the end", async ({ request }) => {
  const { waitlist, seeds } = await waitlistWithSignups(6);
  const first = await request.get(`/v1/waitlist/${waitlist.id}/signup?limit=4`, { headers: auth });
  const items = await contract.json<SignupBody[]>(first, "/waitlist/{id}/signup");
  const arrivals = makeSignups(3, `new-${waitlist.id.slice(0, 6)}`, Date.UTC(2027, 0, 1));
  await insertSignups(waitlist.id, arrivals);
  const rest = await walk(request, nextLink(first)!);
  expect([...items, ...rest.items]).toEqual([...seeds, ...arrivals].map(toBody));
});

test("the full stream of 5,000 signups equals the concatenated pages", async ({ request }) => {
  test.setTimeout(120_000);
  const { waitlist, seeds } = await waitlistWithSignups(5000);
  for (const query of ["", "verified=true&referral=false"]) {
    const { text, items } = await fullList(request, `/v1/waitlist/${waitlist.id}/signup${query ? `?${query}` : ""}`);
    const { items: walked } = await walk(request, `/v1/waitlist/${waitlist.id}/signup?${query ? `${query}&` : ""}limit=1000`);
    expect(items.length).toBe(query ? seeds.filter((seed) => seed.verified && !seed.referral).length : 5000);
    expect(JSON.stringify(walked)).toBe(text);
  }
});

test("a client that stops reading a stream blocks neither the server's writes nor other writers", async ({ request }) => {
  const { waitlist, seeds } = await waitlistWithSignups(5000);
  const url = new URL(`/v1/waitlist/${waitlist.id}/signup`, process.env.E2E_BASE_URL);
  const stream = await new Promise<IncomingMessage>((resolve, reject) => get(url, { headers: auth }, resolve).on("error", reject));
  stream.pause();
  expect(stream.statusCode).toBe(200);
  // A key's first use writes last_used_at on the server's own connection.
  const fresh = (await createApiKey({ name: "first use during a stream", roles: ["waitlist:view"] })).key;
  const other = await request.get(`/v1/waitlist/${waitlist.id}`, { headers: bearer(fresh), timeout: 5000 });
  expect(other.status()).toBe(200);
  await contract.check(other, "/waitlist/{id}");
  await insertSignups(waitlist.id, makeSignups(2, `during-${waitlist.id.slice(0, 6)}`, Date.UTC(2027, 0, 1)));
  stream.resume();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const items = JSON.parse(Buffer.concat(chunks).toString("utf8")) as SignupBody[];
  expect(items.slice(0, 5000)).toEqual(seeds.map(toBody));
});
