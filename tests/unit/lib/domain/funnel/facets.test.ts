import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sourceFacets } from "@/lib/domain/funnel/facets";
import { searchFacetValues } from "@/lib/domain/signups/facet-search";
import { countSignups } from "@/lib/domain/signups/counts";
import { inputFacets } from "@/lib/domain/signups/facets";
import type { SignupScope } from "@/lib/domain/signups/filter";
import type { SignupStatus } from "@/lib/domain/signups/status";
import { listSignupRows } from "@/lib/domain/signups/queries";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { insertSignups } from "@/tests/support/insert-signups";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

let temp: TempDatabase;
let waitlistId: string;
const SOURCES = [{ utm_source: "newsletter", utm_campaign: "launch" }, { utm_source: "newsletter", utm_campaign: "spring" }, { referrer: "news.ycombinator.com" }, {}];

beforeAll(async () => {
  temp = tempDatabase();
  waitlistId = (await createWaitlist({ name: "Sources", website: "https://sources.example" }, temp.db)).id;
  insertSignups(
    waitlistId,
    Array.from({ length: 40 }, (_, index) => ({ email: `s${index}@example.com`, verified: index % 2 === 0, referral: false, customInputs: "[]", createdAt: Date.UTC(2026, 9, 1) + index * 1000, source: SOURCES[index % 4] })),
    temp.db,
  );
});
afterAll(() => temp.close());

describe("source filters and facets", () => {
  it("filters by the exact value, alone and with other filters", async () => {
    expect((await countSignups({ waitlistId, utmSource: "newsletter" }, temp.db)).total).toBe(20);
    expect((await countSignups({ waitlistId, utmSource: "newsletter", utmCampaign: "launch", verified: true }, temp.db)).total).toBe(10);
    expect((await countSignups({ waitlistId, utmSource: "Newsletter" }, temp.db)).total).toBe(0);
    const rows = await listSignupRows({ scope: { waitlistId, referrer: "news.ycombinator.com" }, sort: "created_at", direction: "asc", offset: 0, limit: 50 }, temp.db);
    expect(rows.map((row) => row.email)).toEqual(Array.from({ length: 10 }, (_, index) => `s${index * 4 + 2}@example.com`));
  });

  it("counts each field's values under the other filters, leaving its own out", async () => {
    const facets = (await sourceFacets({ waitlistId, utmCampaign: "launch" }, 10, temp.db))!;
    // utm_source under utm_campaign=launch; utm_campaign without its own filter.
    expect(facets.utm_source).toEqual({ values: [{ value: "newsletter", count: 10 }], exact: true, distinct: 1 });
    expect(facets.utm_campaign.values).toEqual([
      { value: "launch", count: 10 },
      { value: "spring", count: 10 },
    ]);
    expect(facets.referrer.values).toEqual([]);
    expect((await sourceFacets({ waitlistId }, 10, temp.db, 5))!.utm_source.exact).toBe(false);
  });

  it("counts the fields without a filter of their own in one walk of the filtered signups, each over the same rows", async () => {
    // The verified signups are every other one: sources 0 (newsletter, launch) and 2 (the referrer).
    const facets = (await sourceFacets({ waitlistId, verified: true }, 10, temp.db))!;
    expect(facets.utm_source).toEqual({ values: [{ value: "newsletter", count: 10 }], exact: true, distinct: 1 });
    expect(facets.utm_campaign).toEqual({ values: [{ value: "launch", count: 10 }], exact: true, distinct: 1 });
    expect(facets.referrer).toEqual({ values: [{ value: "news.ycombinator.com", count: 10 }], exact: true, distinct: 1 });
    expect(facets.utm_medium).toEqual({ values: [], exact: true, distinct: 0 });
    // Capped: the first 5 of the 20 verified signups are read, whether or not they have a value.
    expect((await sourceFacets({ waitlistId, verified: true }, 10, temp.db, 5))!.referrer.exact).toBe(false);
  });

  it("searches a field's values by the /v1 name of its filter, under the other filters, as the input facets are searched", async () => {
    // `utm_campaign` has two values under no filter; a search for "SPR" finds one (case-insensitive), counted under verified=false.
    expect((await sourceFacets({ waitlistId }, 1, temp.db))!.utm_campaign).toEqual({ values: [{ value: "launch", count: 10 }], exact: true, distinct: 2 });
    expect(await searchFacetValues({ waitlistId, verified: false }, "utm_campaign", "SPR", 20, temp.db)).toEqual({ values: [{ value: "spring", count: 10 }], exact: true });
    // The field's own filter is left out, as in the facet; a literal % matches nothing.
    expect((await searchFacetValues({ waitlistId, utmCampaign: "launch" }, "utm_campaign", "n", 20, temp.db))!.values.map((entry) => entry.value)).toEqual(["launch", "spring"]);
    expect(await searchFacetValues({ waitlistId }, "referrer", "%", 20, temp.db)).toEqual({ values: [], exact: true });
    expect(await searchFacetValues({ waitlistId }, "referrer", "ycomb", 20, temp.db)).toEqual({ values: [{ value: "news.ycombinator.com", count: 10 }], exact: true });
    // A name that is no facet finds nothing.
    expect(await searchFacetValues({ waitlistId }, "email", "s", 20, temp.db)).toEqual({ values: [], exact: true });
  });

  it("counts a custom input's signups in a status through that input's own rows, as the whole walk would", async () => {
    const sliced = (await createWaitlist({ name: "Slices", website: "https://slices.example" }, temp.db)).id;
    const made = Array.from({ length: 60 }, (_, index) => ({
      email: `r${index}@example.com`,
      role: index % 2 === 0 ? "Engineer" : "Designer",
      company: index % 3 === 0 ? "Acme" : "Globex",
      status: (index < 40 ? "waiting" : index < 50 ? "invited" : "rejected") as SignupStatus,
      source: SOURCES[index % 4]!,
    }));
    const customInputs = (each: (typeof made)[number]) => JSON.stringify([{ label: "role", value: each.role }, { label: "company", value: each.company }]);
    insertSignups(sliced, made.map((each, index) => ({ email: each.email, verified: true, referral: false, customInputs: customInputs(each), createdAt: Date.UTC(2026, 9, 1) + index * 1000, status: each.status, source: each.source })), temp.db);
    const count = (rows: typeof made, pick: (each: (typeof made)[number]) => string | undefined) => {
      const counts = new Map<string, number>();
      for (const each of rows) if (pick(each) !== undefined) counts.set(pick(each)!, (counts.get(pick(each)!) ?? 0) + 1);
      return [...counts].map(([value, n]) => ({ value, count: n })).sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1));
    };
    for (const statuses of [["waiting"], ["waiting", "invited"], ["rejected"]] as SignupStatus[][]) {
      const scope: SignupScope = { waitlistId: sliced, status: statuses, inputs: [{ label: "role", value: "Engineer" }] };
      const matching = made.filter((each) => each.role === "Engineer" && statuses.includes(each.status));
      const sources = (await sourceFacets(scope, 10, temp.db))!;
      expect(sources.utm_source.values).toEqual(count(matching, (each) => each.source.utm_source));
      expect(sources.referrer.values).toEqual(count(matching, (each) => each.source.referrer));
      const company = (await inputFacets(scope, {}, temp.db))!.find((facet) => facet.label === "company")!;
      expect(company).toMatchObject({ values: count(matching, (each) => each.company), exact: true });
      // Capped at 3 of the matching signups: the newest 3, and no longer exact.
      const capped = (await inputFacets(scope, { rowCap: 3 }, temp.db))!.find((facet) => facet.label === "company")!;
      expect(capped).toMatchObject({ values: count(matching.slice(-3), (each) => each.company), exact: false });
      expect((await sourceFacets(scope, 10, temp.db, 3))!.utm_source).toMatchObject({ values: count(matching.slice(-3), (each) => each.source.utm_source), exact: false });
    }
  });
});
