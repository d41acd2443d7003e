import { expect, test, type APIRequestContext, type APIResponse } from "@playwright/test";
import { getSignup } from "@/lib/domain/signups/queries";
import { parseSignupPublicId } from "@/lib/domain/signups/id";
import { SOURCE_FIELDS } from "@/lib/domain/funnel/source";
import { SIGNUP_FIELDS } from "@/lib/domain/signups/response";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { Contract, expectProblem } from "../support/api-contract";
import { bearer, insertSignups, makeKeys, nextLink, type SignupSeed } from "../support/api-fixtures";

// The /v1 signup filters (created_since/until, email, email_contains, input.<label>), fields, and
// their paging and streaming, against a fixture whose expected rows are computed here in plain JS.

const HOUR = 3_600_000;
const START = Date.UTC(2026, 8, 28);
const TEMPLATE = "/waitlist/{id}/signup";

type Body = Record<string, unknown>;
type Query = Record<string, string>;

let contract: Contract;
let auth: Record<string, string>;

test.beforeAll(async ({ request }) => {
  contract = await Contract.load(request);
  auth = bearer((await makeKeys()).viewer);
});

/** Custom inputs in both documented shapes, with numbers, booleans, arrays, nested objects and case variants. */
function inputsFor(index: number): Record<string, unknown>[] {
  switch (index % 6) {
    case 1:
      return [
        { label: "company", value: "Acme" },
        { label: "role", value: "Engineer" },
      ];
    case 2:
      return [
        { label: "company", value: "Globex" },
        { label: "role", value: index % 4 === 0 ? "Founder" : "Engineer" },
      ];
    case 3:
      return [{ company: "Acme", seats: index, beta: index % 2 === 0, tags: ["x"], nested: { a: 1 } }];
    case 4:
      return [
        { label: "Company", value: "acme" },
        { label: "role", value: "Engineer" },
      ];
    case 5:
      return [
        { label: "seats", value: 3 },
        { label: "note", value: "a=b&c d+é" },
      ];
    default:
      return [];
  }
}

/** `count` signups, one every 6 hours from September 28 (so one at exactly October 1, 00:00 UTC), some at .999 s, some tied. */
function makeFixture(count: number, tag: string): SignupSeed[] {
  const names = ["Ann", "bob", "carol", "dave"];
  const domains = ["Acme.com", "globex.com", "example.com", "acme.co.uk"];
  return Array.from({ length: count }, (_, index) => ({
    email: index === 7 ? `100%_off.${tag}@example.com` : `${names[index % 4]}.${index}.${tag}@${domains[Math.floor(index / 4) % 4]}`,
    verified: index % 3 !== 0,
    referral: index % 5 === 0,
    customInputs: inputsFor(index),
    createdAt: START + (index % 10 === 9 ? index - 1 : index) * 6 * HOUR + (index % 7 === 3 ? 999 : 0),
  }));
}

/** The (label, value) pairs of a signup's custom inputs, by the documented rule. */
function pairsOf(seed: SignupSeed): [string, string][] {
  const scalar = (value: unknown) => ["string", "number", "boolean"].includes(typeof value);
  return seed.customInputs.flatMap((item): [string, string][] =>
    typeof item.label === "string" && scalar(item.value)
      ? [[item.label, String(item.value)]]
      : Object.entries(item)
          .filter(([, value]) => scalar(value))
          .map(([label, value]) => [label, String(value)]),
  );
}

/** The documented meaning of a query, in plain JS. */
function selects(query: Query, seed: SignupSeed): boolean {
  return Object.entries(query).every(([name, value]) => {
    if (name.startsWith("input.")) return pairsOf(seed).some(([label, text]) => label === name.slice("input.".length) && text === value);
    switch (name) {
      case "verified":
        return String(seed.verified) === value;
      case "referral":
        return String(seed.referral) === value;
      case "created_since":
        return seed.createdAt >= Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
      case "created_until":
        return seed.createdAt < Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
      case "email":
        return seed.email.toLowerCase() === value.toLowerCase();
      case "email_contains":
        return seed.email.toLowerCase().includes(value.toLowerCase());
      default:
        throw new Error(`no reference for ${name}`);
    }
  });
}

const toBody = (seed: SignupSeed): Body => ({ email: seed.email, verified: seed.verified, referral: seed.referral, custom_inputs: seed.customInputs });

function signupUrl(waitlistId: string, query: Query): string {
  const params = new URLSearchParams(query).toString();
  return `/v1/waitlist/${waitlistId}/signup${params ? `?${params}` : ""}`;
}

function paramsOf(url: string): string[] {
  return [...new URL(url, "http://x").searchParams].filter(([name]) => name !== "cursor").map(([name, value]) => `${name}=${value}`).sort();
}

async function fullList(request: APIRequestContext, url: string): Promise<{ text: string; items: Body[] }> {
  const response = await request.get(url, { headers: auth });
  expect(response.status(), url).toBe(200);
  expect(response.headers()["link"]).toBeUndefined();
  const text = await contract.check(response, TEMPLATE);
  return { text, items: JSON.parse(text) as Body[] };
}

/** Follows Link from a first page; every next URL keeps all parameters but the cursor. */
async function walk(request: APIRequestContext, first: string): Promise<{ items: Body[]; pages: number }> {
  const items: Body[] = [];
  let pages = 0;
  for (let url: string | null = first; url; pages++) {
    const response: APIResponse = await request.get(url, { headers: auth });
    expect(response.status(), url).toBe(200);
    const page = await contract.json<Body[]>(response, TEMPLATE);
    items.push(...page);
    url = nextLink(response);
    if (url) {
      expect(paramsOf(url)).toEqual(paramsOf(response.url()));
      expect(page.length).toBe(Number(new URL(response.url()).searchParams.get("limit")));
    }
  }
  return { items, pages };
}

async function fixtureWaitlist(count: number) {
  const waitlist = await createWaitlist({ name: `Filters ${Date.now()}`, website: "https://example.com" });
  const seeds = makeFixture(count, waitlist.id.slice(0, 6));
  await insertSignups(waitlist.id, seeds);
  // The stored order: created_at, then insertion (id).
  const ordered = seeds.map((seed, index) => ({ seed, index })).sort((a, b) => a.seed.createdAt - b.seed.createdAt || a.index - b.index).map(({ seed }) => seed);
  return { waitlist, seeds: ordered };
}

const at999 = (seeds: SignupSeed[]) => new Date(seeds.find((seed) => seed.createdAt % 1000 === 999)!.createdAt).toISOString();

const QUERIES: ((seeds: SignupSeed[]) => Query)[] = [
  () => ({ created_since: "2026-10-01" }),
  () => ({ created_until: "2026-10-01" }),
  () => ({ created_since: "2026-10-01", created_until: "2026-10-05" }),
  () => ({ created_since: "2026-10-02T08:00:00+02:00" }),
  () => ({ created_since: "2026-10-02T05:59:59.999-00:00", created_until: "2026-10-03T06:00:00.001Z" }),
  // Exclusive: the signup at exactly this instant (with its milliseconds) is left out, inclusive: kept.
  (seeds) => ({ created_until: at999(seeds) }),
  (seeds) => ({ created_since: at999(seeds) }),
  (seeds) => ({ email: seeds[0]!.email.toUpperCase() }),
  () => ({ email: "nobody@example.com" }),
  () => ({ email_contains: "ACME" }),
  () => ({ email_contains: "@acme.co" }),
  () => ({ email_contains: "%_" }),
  () => ({ email_contains: "o" }),
  () => ({ "input.company": "Acme" }),
  () => ({ "input.company": "Acme", "input.role": "Engineer" }),
  () => ({ "input.Company": "acme" }),
  () => ({ "input.company": "acme" }),
  () => ({ "input.seats": "3" }),
  () => ({ "input.beta": "true" }),
  () => ({ "input.note": "a=b&c d+é" }),
  () => ({ "input.tags": "x" }),
  () => ({ "input.company": "Nope" }),
  () => ({ verified: "true", created_since: "2026-10-01", "input.role": "Engineer", email_contains: "acme" }),
  () => ({ verified: "true", referral: "false", created_since: "2026-09-29", created_until: "2026-10-10", email_contains: "a", "input.company": "Globex", "input.role": "Engineer" }),
];

test("each filter alone and combined selects exactly its signups, in the full list and in a Link walk", async ({ request }) => {
  test.setTimeout(120_000);
  const { waitlist, seeds } = await fixtureWaitlist(60);
  const sizes = new Set<number>();
  for (const build of QUERIES) {
    const query = build(seeds);
    const expected = seeds.filter((seed) => selects(query, seed)).map(toBody);
    sizes.add(expected.length);
    const label = JSON.stringify(query);
    const { items } = await fullList(request, signupUrl(waitlist.id, query));
    expect(items, label).toEqual(expected);
    for (const item of items) expect(contract.conforms("Signup", item), label).toBe(true);
    const { items: walked, pages } = await walk(request, signupUrl(waitlist.id, { ...query, limit: "4" }));
    expect(walked, `${label} walked`).toEqual(expected);
    expect(pages).toBe(Math.max(1, Math.ceil(expected.length / 4)));
  }
  // The fixture makes the cases tell apart: empty, single, partial and large selections.
  expect(sizes.has(0) && sizes.has(1) && [...sizes].some((size) => size > 20)).toBe(true);
});

test("every malformed filter, fields or input parameter is a 400 that names it", async ({ request }) => {
  const { waitlist } = await fixtureWaitlist(5);
  const elevenInputs = Array.from({ length: 11 }, (_, index) => `input.l${index}=v`).join("&");
  const cases: [query: string, parameter: string, detail: string][] = [
    ["created_since=2026-02-30", "created_since", "ISO 8601"],
    ["created_since=2026-10-01T09:30:00", "created_since", "offset"],
    ["created_since=yesterday", "created_since", "ISO 8601"],
    ["created_until=2026-13-01", "created_until", "ISO 8601"],
    // An unencoded + reads as a space.
    ["created_until=2026-10-01T09:30:00+02:00", "created_until", "%2B"],
    ["created_since=2026-10-05&created_until=2026-10-05", "created_until", "later than"],
    ["created_since=2026-10-05T00:00:00Z&created_until=2026-10-01", "created_until", "later than"],
    ["email=", "email", "empty"],
    ["email_contains=", "email_contains", "empty"],
    // One length for every address (lib/domain/signups/email-address.ts): 254.
    [`email_contains=${"a".repeat(255)}`, "email_contains", "at most 254 characters"],
    [`email=${"a".repeat(243)}@example.com`, "email", "at most 254 characters"],
    ["input.=Acme", "input.", "label"],
    ["input.company=Acme&input.company=Globex", "input.company", "more than once"],
    [elevenInputs, "input.l10", "at most 10"],
    ["Input.company=Acme", "Input.company", "Unknown"],
    ["inputs=x", "inputs", "Unknown"],
    ["fields=email,phone", "fields", '"phone"'],
    ["fields=", "fields", "field names"],
    ["fields=email,,id", "fields", "field names"],
    ["fields=email&fields=id", "fields", "more than once"],
    ["email=a@example.com&email=b@example.com", "email", "more than once"],
  ];
  for (const [query, parameter, detail] of cases) {
    for (const paged of ["", "&limit=2"]) {
      const response = await request.get(`/v1/waitlist/${waitlist.id}/signup?${query}${paged}`, { headers: auth });
      const body = await expectProblem(contract, response, TEMPLATE, { status: 400, code: "invalid_parameter", parameter });
      expect(body.detail, query).toContain(`"${parameter}"`);
      expect(body.detail, query).toContain(detail);
    }
  }
});

test("a cursor continues only the filters it was issued for, whatever the fields", async ({ request }) => {
  const { waitlist, seeds } = await fixtureWaitlist(60);
  const query: Query = { created_since: "2026-09-29", "input.role": "Engineer", email_contains: "a" };
  const first = await request.get(signupUrl(waitlist.id, { ...query, limit: "3" }), { headers: auth });
  await contract.check(first, TEMPLATE);
  const cursor = new URL(nextLink(first)!).searchParams.get("cursor")!;
  const others: Query[] = [
    { ...query, created_since: "2026-09-30" },
    { ...query, created_since: "2026-09-29T00:00:00.001Z" },
    { ...query, "input.role": "Founder" },
    { ...query, "input.company": "Acme" },
    { ...query, email_contains: "ab" },
    { ...query, email: seeds[0]!.email },
    { ...query, created_until: "2026-12-01" },
    { created_since: "2026-09-29", email_contains: "a" },
  ];
  for (const other of others) {
    const response = await request.get(signupUrl(waitlist.id, { ...other, limit: "3", cursor }), { headers: auth });
    await expectProblem(contract, response, TEMPLATE, { status: 400, code: "invalid_parameter", parameter: "cursor" });
  }
  // The same filters written otherwise (another order, the same instant in another form) continue it, with any fields.
  const expected = seeds.filter((seed) => selects(query, seed));
  const same: Query = { "input.role": "Engineer", email_contains: "a", created_since: "2026-09-29T02:00:00+02:00" };
  const rest = await request.get(signupUrl(waitlist.id, { ...same, fields: "email,id", limit: "3", cursor }), { headers: auth });
  const page = await contract.json<Body[]>(rest, TEMPLATE);
  expect(page.map((item) => item.email)).toEqual(expected.slice(3, 6).map((seed) => seed.email));
  expect(page.every((item) => Object.keys(item).join() === "email,id")).toBe(true);
});

test("fields chooses the fields of every object, in the documented order, in pages, walks and streams", async ({ request }) => {
  const { waitlist, seeds } = await fixtureWaitlist(30);
  const variants: [asked: string, keys: string[]][] = [
    ["id", ["id"]],
    ["created_at", ["created_at"]],
    ["id,email", ["email", "id"]],
    ["created_at, verified ,email", ["email", "verified", "created_at"]],
    ["email,verified,referral,custom_inputs", ["email", "verified", "referral", "custom_inputs"]],
    [SIGNUP_FIELDS.join(","), [...SIGNUP_FIELDS]],
    [[...SIGNUP_FIELDS].reverse().join(","), [...SIGNUP_FIELDS]],
    ["id,id", ["id"]],
  ];
  const ids = new Map<string, unknown>();
  for (const [asked, keys] of variants) {
    const filter = { created_since: "2026-10-01" };
    const query = { ...filter, fields: asked };
    const expected = seeds.filter((seed) => selects(filter, seed));
    const { items } = await fullList(request, signupUrl(waitlist.id, query));
    expect(items).toHaveLength(expected.length);
    items.forEach((item, index) => {
      const seed = expected[index]!;
      expect(Object.keys(item), asked).toEqual(keys);
      expect(contract.conforms("SignupWithFields", item)).toBe(true);
      // The seeds were never invited nor rejected: waiting since they signed up; inserted, not joined through a link: no source.
      const sources = Object.fromEntries(SOURCE_FIELDS.map((field) => [field, null]));
      const reference: Body = { ...toBody(seed), created_at: new Date(seed.createdAt).toISOString(), status: "waiting", status_changed_at: null, ...sources };
      for (const key of keys.filter((name) => name !== "id")) expect(item[key]).toEqual(reference[key]);
      if (keys.includes("id")) {
        expect(item.id).toMatch(/^[1-9][0-9]*$/);
        // Stable: the same signup has the same id in every request.
        expect(ids.get(seed.email) ?? item.id).toBe(item.id);
        ids.set(seed.email, item.id);
      }
    });
    const { items: walked } = await walk(request, signupUrl(waitlist.id, { ...query, limit: "7" }));
    expect(walked, asked).toEqual(items);
  }
  // created_at has milliseconds even when they are zero.
  const { items } = await fullList(request, signupUrl(waitlist.id, { fields: "created_at" }));
  expect(items.map((item) => item.created_at)).toEqual(seeds.map((seed) => new Date(seed.createdAt).toISOString()));
  expect(items.every((item) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(item.created_at as string))).toBe(true);
});

test("a signup's id is the same under any filter and leads to that signup (the dashboard's /waitlists/{id}/signups/{id})", async ({ request }) => {
  const { waitlist, seeds } = await fixtureWaitlist(20);
  const { items: all } = await fullList(request, signupUrl(waitlist.id, { fields: "email,id" }));
  expect(new Set(all.map((item) => item.id)).size).toBe(seeds.length);
  for (const seed of [seeds[0]!, seeds[7]!, seeds[19]!]) {
    const { items } = await fullList(request, signupUrl(waitlist.id, { email: seed.email, fields: "id,email" }));
    expect(items).toEqual([all.find((item) => item.email === seed.email)]);
    const signupId = parseSignupPublicId(items[0]!.id as string);
    expect(signupId).toBeDefined();
    expect((await getSignup(waitlist.id, signupId!))?.email).toBe(seed.email);
    // The same number in another waitlist is not this signup.
    expect(await getSignup((await createWaitlist({ name: "Other", website: "https://example.com" })).id, signupId!)).toBeUndefined();
  }
});

test("the streamed full list with filters and fields equals the concatenated Link pages", async ({ request }) => {
  test.setTimeout(120_000);
  const { waitlist, seeds } = await fixtureWaitlist(3000);
  const queries: Query[] = [
    { "input.role": "Engineer", fields: "email,created_at,id" },
    { created_since: "2026-10-15", created_until: "2028-06-01", verified: "true", email_contains: ".co" },
  ];
  for (const query of queries) {
    const { text, items } = await fullList(request, signupUrl(waitlist.id, query));
    const filter = Object.fromEntries(Object.entries(query).filter(([name]) => name !== "fields"));
    const expected = seeds.filter((seed) => selects(filter, seed));
    // More than one batch of 1,000: the stream continues across batches.
    expect(expected.length).toBeGreaterThan(1000);
    expect(items.map((item) => item.email)).toEqual(expected.map((seed) => seed.email));
    const { items: walked, pages } = await walk(request, signupUrl(waitlist.id, { ...query, limit: "1000" }));
    expect(pages).toBe(Math.ceil(expected.length / 1000));
    expect(JSON.stringify(walked)).toBe(text);
  }
});
