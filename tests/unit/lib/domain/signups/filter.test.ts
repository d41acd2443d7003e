import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aggregatePlan, planAccess } from "@/lib/domain/signups/access";
import { countSignups, signupsPerDay } from "@/lib/domain/signups/counts";
import { inputFacets, inputFacetValues } from "@/lib/domain/signups/facets";
import { FACET_ROW_CAP } from "@/lib/domain/signups/limits";
import type { InputMatch, SignupFilter, SignupScope } from "@/lib/domain/signups/filter";
import { findSignupsByEmail } from "@/lib/domain/signups/find";
import { listSignupRows, signupJsonBatches, signupRowBatches } from "@/lib/domain/signups/queries";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import type { SignupRow } from "@/lib/domain/signups/row";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { allOf } from "@/tests/support/batches";
import { insertSignups } from "@/tests/support/insert-signups";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

// Every filter of the model, alone and combined, against a plain-JavaScript reference: on a small
// list (read by walking it) and on a list large enough for the search and input indexes to be used.

const DAY = 86_400_000;
const BASE = Date.UTC(2025, 0, 1);
const ROLES = ["Engineer", "Founder", "Designer", "Sales"];
const COMPANIES = Array.from({ length: 40 }, (_, index) => `Company ${index}`);
const DOMAINS = ["gmail.com", "acme.com", "outlook.com", "zeta.io"];

let temp: TempDatabase;
let small: string;
let large: string;
const rowsOf = new Map<string, SignupRow[]>();

/** Deterministic pseudo-random numbers (a tiny LCG), so a failure reproduces. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

function inputsFor(index: number, next: () => number): unknown[] {
  if (index % 7 === 0) return [];
  const role = ROLES[Math.floor(next() * ROLES.length)]!;
  const company = COMPANIES[Math.floor(next() ** 2 * COMPANIES.length)]!;
  // Both shapes of custom input: a {label, value} object, and a plain object of properties.
  return index % 3 === 0 ? [{ company, role, score: index % 5, beta: index % 2 === 0 }] : [{ label: "company", value: company }, { label: "role", value: role }];
}

/** Both lists go in as an import writes them (the bulk writer). */
async function fill(waitlistId: string, count: number, seed: number) {
  const next = random(seed);
  const signups = Array.from({ length: count }, (_, index) => ({
    email: `${index % 11 === 0 ? "Jane" : "user"}.${index}@${DOMAINS[index % DOMAINS.length]!}`,
    verified: next() < 0.6,
    referral: next() < 0.25,
    customInputs: JSON.stringify(inputsFor(index, next)),
    createdAt: BASE + Math.floor(next() * 400 * DAY),
  }));
  insertSignups(waitlistId, signups, temp.db, BASE);
  rowsOf.set(waitlistId, await allOf(signupRowBatches({ waitlistId }, 5000, temp.db)));
}

beforeAll(async () => {
  temp = tempDatabase();
  small = (await createWaitlist({ name: "Small", website: "https://e.com" }, temp.db)).id;
  large = (await createWaitlist({ name: "Large", website: "https://e.com" }, temp.db)).id;
  await fill(small, 3000, 7);
  await fill(large, 60_000, 11);
}, 120_000);
afterAll(() => temp.close());

/** The (label, value) pairs of a signup's inputs, by the documented rule. */
function pairsOf(row: SignupRow): InputMatch[] {
  const scalar = (value: unknown) => ["string", "number", "boolean"].includes(typeof value);
  return row.customInputs.flatMap((item) => {
    if (typeof item.label === "string" && scalar(item.value)) return [{ label: item.label, value: String(item.value) }];
    return Object.entries(item)
      .filter(([, value]) => scalar(value))
      .map(([label, value]) => ({ label, value: String(value) }));
  });
}

function matches(row: SignupRow, filter: SignupFilter): boolean {
  const email = row.email.toLowerCase();
  const time = row.createdAt.getTime();
  return (
    (filter.verified === undefined || row.verified === filter.verified) &&
    (filter.referral === undefined || row.referral === filter.referral) &&
    (!filter.createdSince || time >= filter.createdSince.getTime()) &&
    (!filter.createdUntil || time < filter.createdUntil.getTime()) &&
    (filter.email === undefined || email === filter.email.toLowerCase()) &&
    (filter.emailContains === undefined || email.includes(filter.emailContains.toLowerCase())) &&
    (filter.inputs ?? []).every((input) => pairsOf(row).some((pair) => pair.label === input.label && pair.value === input.value)) &&
    (filter.status === undefined || filter.status.includes(row.status))
  );
}

const FILTERS: SignupFilter[] = [
  {},
  { verified: true },
  { referral: false, verified: false },
  { createdSince: new Date(BASE + 100 * DAY) },
  { createdSince: new Date(BASE + 100 * DAY + 3_600_000), createdUntil: new Date(BASE + 131 * DAY + 60_000) },
  { createdUntil: new Date(BASE + 5 * DAY + 1) },
  { email: "JANE.0@gmail.com" },
  { email: "nobody@nowhere.com" },
  { emailContains: "jane" },
  { emailContains: "@ACME.com" },
  { emailContains: ".1" },
  { emailContains: "user" },
  { emailContains: "9@z" },
  { emailContains: "%" },
  // Whole addresses: the index looks up the part before the "@", which other addresses hold too (Jane.110@…).
  { emailContains: "JANE.11@zeta.io" },
  { emailContains: "user.1@acme.com" },
  { inputs: [{ label: "role", value: "Engineer" }] },
  { inputs: [{ label: "company", value: "Company 39" }] },
  { inputs: [{ label: "score", value: "3" }] },
  { inputs: [{ label: "beta", value: "true" }] },
  { inputs: [{ label: "company", value: "Company 0" }, { label: "role", value: "Sales" }] },
  { inputs: [{ label: "role", value: "Engineer" }], verified: true, createdSince: new Date(BASE + 30 * DAY) },
  // One input and a range that cuts days: counted and charted from that range of signup_inputs' key.
  { inputs: [{ label: "company", value: "Company 39" }], referral: true, createdSince: new Date(BASE + 20 * DAY + 7_200_000), createdUntil: new Date(BASE + 200 * DAY + 60_000) },
  { inputs: [{ label: "role", value: "Engineer" }], createdUntil: new Date(BASE + 50 * DAY + 1) },
  { emailContains: "jane", inputs: [{ label: "role", value: "Founder" }], referral: true },
  { emailContains: "user.1", createdSince: new Date(BASE + 10 * DAY), createdUntil: new Date(BASE + 300 * DAY), verified: false },
];

describe.each([
  ["a small list", () => small],
  ["a large list", () => large],
])("the filter model on %s", (_name, list) => {
  it.each(FILTERS)("rows, pages, counts and the chart agree with the reference for %j", async (filter) => {
    const waitlistId = list();
    const scope: SignupScope = { waitlistId, ...filter };
    const expected = rowsOf.get(waitlistId)!.filter((row) => matches(row, filter));

    const streamed = await allOf(signupRowBatches(scope, 700, temp.db));
    expect(streamed.map((row) => row.id)).toEqual(expected.map((row) => row.id));
    expect(await allOf(signupJsonBatches(scope, 900, temp.db))).toHaveLength(expected.length);

    const newest = [...expected].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id);
    expect((await listSignupRows({ scope, offset: 0, limit: 25 }, temp.db)).map((row) => row.id)).toEqual(newest.slice(0, 25).map((row) => row.id));
    expect((await listSignupRows({ scope, offset: 50, limit: 25 }, temp.db)).map((row) => row.id)).toEqual(newest.slice(50, 75).map((row) => row.id));
    const byEmail = [...expected].sort((a, b) => (a.email.toLowerCase() < b.email.toLowerCase() ? -1 : a.email.toLowerCase() > b.email.toLowerCase() ? 1 : a.id - b.id));
    expect((await listSignupRows({ scope, sort: "email", direction: "asc", offset: 0, limit: 10 }, temp.db)).map((row) => row.id)).toEqual(byEmail.slice(0, 10).map((row) => row.id));

    const counts = await countSignups(scope, temp.db);
    if (filter.emailContains !== undefined && expected.length > 10_000) {
      expect(counts).toMatchObject({ total: 10_000, exact: false });
      return;
    }
    expect(counts.exact).toBe(true);
    expect(counts.total).toBe(expected.length);
    expect(counts.verified).toBe(expected.filter((row) => row.verified).length);
    expect(counts.referral).toBe(expected.filter((row) => row.referral).length);
    const unverified = rowsOf.get(waitlistId)!.filter((row) => matches(row, { ...filter, verified: undefined }));
    expect(counts.verifiedFacet).toEqual({ yes: unverified.filter((row) => row.verified).length, no: unverified.filter((row) => !row.verified).length });

    const since = new Date(BASE + 200 * DAY + 5000);
    const perDay = new Map<string, number>();
    for (const row of expected.filter((entry) => entry.createdAt >= since)) {
      const day = row.createdAt.toISOString().slice(0, 10);
      perDay.set(day, (perDay.get(day) ?? 0) + 1);
    }
    expect(await signupsPerDay(scope, since, temp.db)).toEqual([...perDay].sort(([a], [b]) => (a < b ? -1 : 1)).map(([day, count]) => ({ day, count })));
  });

  it.each(FILTERS)("input facets count the values under the other filters for %j", async (filter) => {
    const waitlistId = list();
    // Counted over every matching row here; the row cap has a test of its own below.
    const facets = await inputFacets({ waitlistId, ...filter }, { labels: 8, values: 5, rowCap: Infinity }, temp.db);
    const matching = rowsOf.get(waitlistId)!.filter((row) => matches(row, filter)).length;
    if (filter.emailContains !== undefined && matching > 10_000) return expect(facets).toBeNull();
    if (!facets) throw new Error("no facets");
    expect(facets.map((facet) => facet.label).sort()).toEqual(["beta", "company", "role", "score"]);
    for (const facet of facets) {
      const others = { ...filter, inputs: filter.inputs?.filter((input) => input.label !== facet.label) };
      const counted = new Map<string, number>();
      for (const row of rowsOf.get(waitlistId)!.filter((entry) => matches(entry, others))) {
        for (const value of new Set(pairsOf(row).filter((pair) => pair.label === facet.label).map((pair) => pair.value))) counted.set(value, (counted.get(value) ?? 0) + 1);
      }
      const top = [...counted].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)).slice(0, 5);
      expect(facet.values).toEqual(top.map(([value, count]) => ({ value, count })));
      expect(facet.exact).toBe(true);
    }
  });
});

describe("access plans", () => {
  it("estimates an input within a date range as the range's share of the input's count", async () => {
    // Past SMALL_LIST signups in the range, so that the indexes are weighed against walking it.
    const range = { createdSince: new Date(BASE + 20 * DAY) };
    const role = { label: "role", value: "Sales" };
    const rows = rowsOf.get(large)!;
    const inRange = rows.filter((row) => matches(row, range)).length;
    const withRole = rows.filter((row) => matches(row, { inputs: [role] })).length;
    expect(inRange).toBeGreaterThan(50_000);
    const plan = await planAccess({ waitlistId: large, ...range, inputs: [role] }, temp.db);
    expect(plan).toMatchObject({ count: "input0", bound: Math.ceil((withRole * inRange) / rows.length) });
  });
});

describe("facets past the row cap", () => {
  it("counts values in the newest FACET_ROW_CAP matching signups only, as lower bounds, and says so", async () => {
    const filter = { inputs: [{ label: "role", value: "Engineer" }] };
    const engineers = rowsOf.get(large)!.filter((row) => matches(row, filter));
    expect(engineers.length).toBeGreaterThan(FACET_ROW_CAP);
    const capped = (await inputFacets({ waitlistId: large, ...filter }, { labels: 8, values: 50 }, temp.db))!;
    const exact = (await inputFacets({ waitlistId: large, ...filter }, { labels: 8, values: 50, rowCap: Infinity }, temp.db))!;
    const company = (facets: typeof capped) => facets.find((facet) => facet.label === "company")!;
    expect(company(capped).exact).toBe(false);
    expect(company(exact).exact).toBe(true);
    const counted = company(capped).values.reduce((total, entry) => total + entry.count, 0);
    expect(counted).toBeGreaterThan(0);
    expect(counted).toBeLessThanOrEqual(FACET_ROW_CAP);
    for (const entry of company(capped).values) {
      expect(entry.count).toBeLessThanOrEqual(company(exact).values.find((other) => other.value === entry.value)!.count);
    }
    // Exactly the counts of the newest FACET_ROW_CAP engineers (ties: the later signup first).
    const newest = [...engineers].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id).slice(0, FACET_ROW_CAP);
    for (const entry of company(capped).values) {
      expect(entry.count).toBe(newest.filter((row) => pairsOf(row).some((pair) => pair.label === "company" && pair.value === entry.value)).length);
    }
    // The facet of the filtered label itself is counted without that filter: verified/referral alone, from the counts table.
    expect(capped.find((facet) => facet.label === "role")!).toMatchObject({ exact: true });
    // A small enough scope is exact.
    const rare = (await inputFacets({ waitlistId: large, inputs: [{ label: "company", value: "Company 3" }] }, { labels: 8, values: 50 }, temp.db))!;
    expect(rare.every((facet) => facet.exact)).toBe(true);
  });

  it("tells from its one read of the scope's rows whether the cap was reached, right at the cap too", async () => {
    // A date range and a flag: the facets read the scope's rows (no counts table, no input slice).
    const filter: SignupFilter = { verified: true, createdSince: new Date(BASE + 300 * DAY) };
    const matching = rowsOf.get(large)!.filter((row) => matches(row, filter)).length;
    expect(matching).toBeGreaterThan(1000);
    const exactness = async (rowCap: number) => [...new Set((await inputFacets({ waitlistId: large, ...filter }, { labels: 8, values: 5, rowCap }, temp.db))!.map((facet) => facet.exact))];
    expect(await exactness(matching + 1)).toEqual([true]);
    expect(await exactness(matching)).toEqual([true]);
    expect(await exactness(matching - 1)).toEqual([false]);
  });
});

describe("large searches", () => {
  it("counts a search that matches more than 10,000 signups as a lower bound", async () => {
    const scope = { waitlistId: large, emailContains: "user" };
    expect(await countSignups(scope, temp.db)).toMatchObject({ total: 10_000, exact: false });
    expect(await signupsPerDay(scope, new Date(BASE), temp.db)).toBeNull();
    expect(await inputFacets(scope, {}, temp.db)).toBeNull();
    // The rows themselves are all there.
    expect((await allOf(signupRowBatches(scope, 5000, temp.db))).length).toBe(rowsOf.get(large)!.filter((row) => row.email.includes("user")).length);
  });
});

describe("facet value search", () => {
  it("lists the values of one label that contain a text, counted under the other filters", async () => {
    const { values } = (await inputFacetValues({ waitlistId: large, verified: true }, "company", "ny 3", 20, temp.db))!;
    expect(values.map((entry) => entry.value).sort()).toEqual(COMPANIES.filter((name) => name.includes("ny 3")).sort());
    const expected = rowsOf.get(large)!.filter((row) => row.verified && pairsOf(row).some((pair) => pair.label === "company" && pair.value === "Company 3")).length;
    expect(values.find((entry) => entry.value === "Company 3")!.count).toBe(expected);
  });
});

describe("finding a person across waitlists", () => {
  it("finds an exact address in every waitlist, and addresses containing a text", async () => {
    const exact = await findSignupsByEmail({ email: "JANE.0@GMAIL.COM", limit: 10 }, temp.db);
    expect(exact.map((found) => found.waitlistName)).toEqual(["Large", "Small"]);
    const contains = await findSignupsByEmail({ contains: "jane.1001@", limit: 10 }, temp.db);
    expect(contains.map((found) => `${found.waitlistName}:${found.email}`)).toEqual(["Large:Jane.1001@acme.com", "Small:Jane.1001@acme.com"]);
    await expect(findSignupsByEmail({ contains: "ja", limit: 10 }, temp.db)).rejects.toThrow(RangeError);
  });
});

describe("derived data follows deletes", () => {
  it("deleting signups removes them from the counts, the input pairs and their counts, and the search index", async () => {
    const sqlite = temp.db.$client;
    const victims = rowsOf.get(small)!.filter((row) => row.email.startsWith("Jane")).slice(0, 20);
    const remove = sqlite.prepare("DELETE FROM signups WHERE id = ?");
    sqlite.transaction(() => victims.forEach((row) => remove.run(row.id)))();
    const remaining = rowsOf.get(small)!.filter((row) => !victims.includes(row));

    expect((await countSignups({ waitlistId: small }, temp.db)).total).toBe(remaining.length);
    expect((await findSignupsByEmail({ email: victims[0]!.email, limit: 10 }, temp.db)).map((found) => found.waitlistName)).toEqual(["Large"]);
    expect(sqlite.prepare("SELECT count(*) AS n FROM signup_email_search WHERE email LIKE ?").get(`%${victims[1]!.email}%`)).toEqual({ n: 1 });
    const stale = sqlite
      .prepare(
        `SELECT count(*) AS n FROM signup_input_counts c WHERE c.count <> (SELECT count(*) FROM signup_inputs i
         WHERE i.waitlist_id = c.waitlist_id AND i.label = c.label AND i.value = c.value AND i.verified = c.verified AND i.referral = c.referral)`,
      )
      .get();
    expect(stale).toEqual({ n: 0 });
    expect(sqlite.prepare("SELECT count(*) AS n FROM signup_inputs WHERE signup_id NOT IN (SELECT id FROM signups)").get()).toEqual({ n: 0 });
    const facets = (await inputFacets({ waitlistId: small }, { labels: 8, values: 50 }, temp.db))!;
    const engineers = remaining.filter((row) => pairsOf(row).some((pair) => pair.label === "role" && pair.value === "Engineer")).length;
    expect(facets.find((facet) => facet.label === "role")!.values.find((entry) => entry.value === "Engineer")!.count).toBe(engineers);
  });
});

describe("statuses other than waiting, read through the status index", () => {
  const byNewest = (a: SignupRow, b: SignupRow) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id;
  beforeAll(async () => {
    // A list drained the usual way: the oldest verified invited, some referrals rejected; few of each, at the old end.
    await applyStatusAction("cli", { action: "invite", selection: { scope: { waitlistId: large, verified: true }, limit: 700 } }, temp.db);
    await applyStatusAction("cli", { action: "complete", selection: { scope: { waitlistId: large }, limit: 200 } }, temp.db);
    await applyStatusAction("cli", { action: "reject", selection: { scope: { waitlistId: large, referral: true }, limit: 40 } }, temp.db);
    rowsOf.set(large, await allOf(signupRowBatches({ waitlistId: large }, 5000, temp.db)));
  });

  const STATUS_FILTERS: SignupFilter[] = [
    { status: ["invited"] },
    { status: ["rejected"] },
    { status: ["invited", "completed"] },
    { status: ["completed", "rejected"], verified: true },
    { status: ["invited"], inputs: [{ label: "role", value: "Engineer" }] },
    { status: ["invited"], emailContains: "user" },
    { status: ["rejected"], createdUntil: new Date(BASE + DAY) },
    { status: ["waiting", "rejected"], referral: true },
  ];

  it.each(STATUS_FILTERS)("pages in both orders, counts and the keyset stream agree with the reference for %j", async (filter) => {
    const scope: SignupScope = { waitlistId: large, ...filter };
    const expected = rowsOf.get(large)!.filter((row) => matches(row, filter));
    expect(expected.length).toBeGreaterThan(0);
    // (A one-day range is walked: it holds fewer signups than any index would save reading.)
    if (!filter.status!.includes("waiting") && !filter.emailContains && !filter.createdUntil) expect((await planAccess(scope, temp.db)).rows).toBe("status");
    const newest = [...expected].sort(byNewest);
    expect((await listSignupRows({ scope, offset: 0, limit: 25 }, temp.db)).map((row) => row.id)).toEqual(newest.slice(0, 25).map((row) => row.id));
    expect((await listSignupRows({ scope, direction: "asc", offset: 10, limit: 25 }, temp.db)).map((row) => row.id)).toEqual([...newest].reverse().slice(10, 35).map((row) => row.id));
    const byEmail = [...expected].sort((a, b) => (a.email.toLowerCase() < b.email.toLowerCase() ? -1 : a.email.toLowerCase() > b.email.toLowerCase() ? 1 : a.id - b.id));
    expect((await listSignupRows({ scope, sort: "email", direction: "asc", offset: 0, limit: 25 }, temp.db)).map((row) => row.id)).toEqual(byEmail.slice(0, 25).map((row) => row.id));
    expect((await allOf(signupRowBatches(scope, 300, temp.db))).map((row) => row.id)).toEqual([...newest].reverse().map((row) => row.id));
    const counts = await countSignups(scope, temp.db);
    if (counts.exact) expect(counts.total).toBe(expected.length);
  });

  it("counts an input's facets under status=waiting past the cap as lower bounds of FACET_ROW_CAP matches, and exactly without a cap", async () => {
    const filter: SignupFilter = { status: ["waiting"], inputs: [{ label: "role", value: "Engineer" }] };
    const waiting = rowsOf.get(large)!.filter((row) => matches(row, filter));
    expect(waiting.length).toBeGreaterThan(FACET_ROW_CAP);
    const companyOf = async (rowCap: number) => (await inputFacets({ waitlistId: large, ...filter }, { labels: 8, values: 50, rowCap }, temp.db))!.find((facet) => facet.label === "company")!;
    const capped = await companyOf(FACET_ROW_CAP);
    const exact = await companyOf(Infinity);
    expect([capped.exact, exact.exact]).toEqual([false, true]);
    const reference = (value: string) => waiting.filter((row) => pairsOf(row).some((pair) => pair.label === "company" && pair.value === value)).length;
    for (const entry of exact.values) expect(entry.count).toBe(reference(entry.value));
    for (const entry of capped.values) expect(entry.count).toBeLessThanOrEqual(reference(entry.value));
    const counted = capped.values.reduce((total, entry) => total + entry.count, 0);
    expect(counted).toBeGreaterThan(FACET_ROW_CAP / 2);
    expect(counted).toBeLessThanOrEqual(FACET_ROW_CAP);
  });
});

// Last in the file: it writes to the large list, which the reference rows above no longer include.
describe("a small scope of a large list", () => {
  it("is counted through its own ids, found once per database version, and a signup written since is in the next plan", async () => {
    // "jane" is in one address in eleven; Founders with a referral among them are a few hundred.
    const filter: SignupFilter = { emailContains: "jane", inputs: [{ label: "role", value: "Founder" }], referral: true };
    const scope: SignupScope = { waitlistId: large, ...filter };
    const expected = rowsOf.get(large)!.filter((row) => matches(row, filter));
    const plan = await aggregatePlan(scope, temp.db);
    expect(plan).toMatchObject({ count: "ids", capped: "ids", bound: expected.length });
    expect([...plan.ids!].sort((a, b) => a - b)).toEqual(expected.map((row) => row.id).sort((a, b) => a - b));
    // The same plan while nothing is written; a page of rows never looks for the ids (it stops at its first rows).
    expect(await aggregatePlan(scope, temp.db)).toBe(plan);
    expect((await planAccess(scope, temp.db)).ids).toBeUndefined();
    expect(plan.rows).not.toBe("ids");

    insertSignups(large, [{ email: "Jane.new@zeta.io", verified: false, referral: true, customInputs: JSON.stringify([{ label: "role", value: "Founder" }]), createdAt: BASE + 500 * DAY }], temp.db, BASE);
    const next = await aggregatePlan(scope, temp.db);
    expect(next.ids).toHaveLength(expected.length + 1);
    expect((await listSignupRows({ scope, offset: 0, limit: 1 }, temp.db))[0]!.email).toBe("Jane.new@zeta.io");
    expect(await countSignups(scope, temp.db)).toMatchObject({ total: expected.length + 1, exact: true });
    const facets = (await inputFacets(scope, { labels: 8, values: 5, rowCap: Infinity }, temp.db))!;
    expect(facets.find((facet) => facet.label === "role")!.values).toContainEqual({ value: "Founder", count: expected.length + 1 });
  });

  it("is not looked for when only filters that signup_counts keeps narrow the index's rows", async () => {
    // Verified Engineers with a referral: a few thousand, whose counts and facets signup_input_counts
    // gives (an input slice), and whose pages stop at their first rows.
    const filter: SignupFilter = { inputs: [{ label: "role", value: "Engineer" }], verified: true, referral: true };
    expect(rowsOf.get(large)!.filter((row) => matches(row, filter)).length).toBeLessThan(10_000);
    const plan = await aggregatePlan({ waitlistId: large, ...filter }, temp.db);
    expect([plan.idsThrough, plan.ids]).toEqual([undefined, undefined]);
    expect([plan.rows, plan.count, plan.capped]).not.toContain("ids");
  });
});
