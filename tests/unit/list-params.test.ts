import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { dashboardScope, parseApiQuery, parseSignupTableParams, signupListParamsSchema, waitlistListParamsSchema } from "@/lib/domain/list-params";

function apiError(query: string, schema: z.ZodType = signupListParamsSchema): AppError {
  try {
    parseApiQuery(new URLSearchParams(query), schema);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error(`expected ${query} to be refused`);
}

describe("strict /v1 query parsing", () => {
  it("parses filters and pagination", () => {
    expect(parseApiQuery(new URLSearchParams("verified=true&referral=false&limit=50&cursor=abc"), signupListParamsSchema)).toEqual({
      verified: true,
      referral: false,
      limit: 50,
      cursor: "abc",
    });
    expect(parseApiQuery(new URLSearchParams(""), waitlistListParamsSchema)).toEqual({});
  });

  it.each([
    ["verified=yes", "verified"],
    ["verified=TRUE", "verified"],
    ["referral=", "referral"],
    ["limit=0", "limit"],
    ["limit=1001", "limit"],
    ["limit=1.5", "limit"],
    ["limit=-1", "limit"],
    ["limit=abc", "limit"],
    ["cursor=", "cursor"],
    ["sort=email", "sort"],
    ["verified=true&verified=false", "verified"],
  ])("refuses %s naming %s", (query, parameter) => {
    const error = apiError(query);
    expect(error.code).toBe("invalid_parameter");
    expect(error.parameter).toBe(parameter);
    expect(error.message).toContain(parameter);
  });

  it("refuses filters on the waitlist list", () => {
    expect(apiError("verified=true", waitlistListParamsSchema).parameter).toBe("verified");
  });
});

describe("lenient dashboard parsing", () => {
  const defaults = { verified: undefined, referral: undefined, q: undefined, from: undefined, to: undefined, inputs: [], facet: undefined, facet_q: undefined, sort: "created_at", dir: "desc", page: 1, size: 25 };

  it("keeps valid values", () => {
    expect(
      parseSignupTableParams({
        verified: "true",
        referral: "false",
        q: " ann ",
        from: "2026-10-01",
        to: "2026-10-31",
        "input.company": "Acme Inc",
        "input.role": "Engineer",
        facet: "company",
        facet_q: " ac ",
        sort: "email",
        dir: "asc",
        page: "3",
        size: "100",
      }),
    ).toEqual({
      verified: true,
      referral: false,
      q: "ann",
      from: "2026-10-01",
      to: "2026-10-31",
      inputs: [
        { label: "company", value: "Acme Inc" },
        { label: "role", value: "Engineer" },
      ],
      facet: "company",
      facet_q: "ac",
      sort: "email",
      dir: "asc",
      page: 3,
      size: 100,
    });
  });

  it("falls back to defaults for bad values and takes the first of repeated ones", () => {
    expect(parseSignupTableParams({ verified: "maybe", q: "   ", sort: "id; drop", dir: "up", page: "-2", size: "30" })).toEqual(defaults);
    expect(parseSignupTableParams({ size: ["50", "100"] }).size).toBe(50);
    expect(parseSignupTableParams({ "input.company": ["Acme", "Globex"] }).inputs).toEqual([{ label: "company", value: "Acme" }]);
  });

  it.each([["2026-02-30"], ["2026-10-1"], ["2026-10-01T00:00:00Z"], ["yesterday"], ["1969-12-31"], ["9999-12-31"], [""]])("ignores the day %j", (day) => {
    expect(parseSignupTableParams({ from: day, to: day })).toEqual(defaults);
  });

  it("drops a To before From, keeps a one-day range", () => {
    expect(parseSignupTableParams({ from: "2026-10-05", to: "2026-10-04" })).toMatchObject({ from: "2026-10-05", to: undefined });
    expect(parseSignupTableParams({ from: "2026-10-05", to: "2026-10-05" })).toMatchObject({ from: "2026-10-05", to: "2026-10-05" });
  });

  it("ignores empty or too long input labels and values past the eighth label", () => {
    const many = Object.fromEntries(Array.from({ length: 10 }, (_, index) => [`input.l${index}`, `v${index}`]));
    expect(parseSignupTableParams(many).inputs.map((input) => input.label)).toEqual(["l0", "l1", "l2", "l3", "l4", "l5", "l6", "l7"]);
    expect(parseSignupTableParams({ "input.": "x", [`input.${"a".repeat(321)}`]: "x", "input.ok": "y".repeat(321), "input.empty": "" }).inputs).toEqual([
      { label: "empty", value: "" },
    ]);
  });
});

describe("the dashboard's scope", () => {
  it("turns the URL state into the shared filter: To includes its whole day, q is an email substring", () => {
    const state = parseSignupTableParams({ verified: "true", q: "Ann", from: "2026-10-01", to: "2026-10-31", "input.company": "Acme" });
    expect(dashboardScope("w", state)).toEqual({
      waitlistId: "w",
      verified: true,
      referral: undefined,
      createdSince: new Date("2026-10-01T00:00:00Z"),
      createdUntil: new Date("2026-11-01T00:00:00Z"),
      emailContains: "Ann",
      inputs: [{ label: "company", value: "Acme" }],
    });
    expect(dashboardScope("w", parseSignupTableParams({}))).toEqual({ waitlistId: "w" });
  });
});
