import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { parseSignupTableParams } from "@/lib/dashboard/signup-table";
import { parseApiQuery, parseSignupListQuery, signupListParamsSchema, waitlistListParamsSchema } from "@/lib/domain/list-params";
import { tableScope } from "@/lib/dashboard/signup-table-url";

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

function signupListError(query: string): AppError {
  try {
    parseSignupListQuery(new URLSearchParams(query));
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error(`expected ${query} to be refused`);
}

const elevenInputs = Array.from({ length: 11 }, (_, index) => `input.l${index}=v`).join("&");

describe("strict /v1 signup list query", () => {
  it("parses every filter, the fields and the page", () => {
    const query =
      "verified=false&created_since=2026-10-01&created_until=2026-10-31T22:00:00.5%2B02:00&email_contains=%40Acme.com&input.company=Acme%20Inc&input.role=&fields=id,email,%20created_at&limit=5&cursor=abc";
    expect(parseSignupListQuery(new URLSearchParams(query))).toEqual({
      filter: {
        verified: false,
        referral: undefined,
        createdSince: new Date(Date.UTC(2026, 9, 1)),
        createdUntil: new Date(Date.UTC(2026, 9, 31, 20, 0, 0, 500)),
        email: undefined,
        emailContains: "@Acme.com",
        inputs: [
          { label: "company", value: "Acme Inc" },
          { label: "role", value: "" },
        ],
      },
      // In the order of SIGNUP_FIELDS, whatever the order asked.
      fields: ["email", "created_at", "id"],
      sort: "created_at",
      keyset: { limit: 5, cursor: "abc" },
    });
    expect(parseSignupListQuery(new URLSearchParams("email=Ann@Example.com"))).toMatchObject({ filter: { email: "Ann@Example.com", inputs: undefined }, fields: undefined });
  });

  it.each([
    ["created_since=2026-10-01T09:30:00Z", Date.UTC(2026, 9, 1, 9, 30)],
    ["created_since=2026-10-01T09:30:00-04:30", Date.UTC(2026, 9, 1, 14, 0)],
    ["created_since=2024-02-29", Date.UTC(2024, 1, 29)],
    // Years before 100 are years, not 1900 + n.
    ["created_since=0050-03-01", Date.parse("0050-03-01T00:00:00Z")],
  ])("reads %s as an instant", (query, time) => {
    expect(parseSignupListQuery(new URLSearchParams(query)).filter.createdSince?.getTime()).toBe(time);
  });

  it.each([
    ["created_since=2026-13-01", "created_since"],
    ["created_since=2026-02-30", "created_since"],
    ["created_since=2026-10-01T09:30:00", "created_since"],
    ["created_since=2026-10-01T24:00:00Z", "created_since"],
    ["created_since=01/10/2026", "created_since"],
    ["created_since=", "created_since"],
    ["created_until=2026-10-01T09:30:00+02:00", "created_until"],
    ["created_since=2026-10-02&created_until=2026-10-02", "created_until"],
    ["created_since=2026-10-02T00:00:00Z&created_until=2026-10-01T23:59:59Z", "created_until"],
    ["email=", "email"],
    [`email_contains=${"a".repeat(321)}`, "email_contains"],
    ["input.=Acme", "input."],
    ["input.company=Acme&input.company=Globex", "input.company"],
    [elevenInputs, "input.l10"],
    ["inputs=x", "inputs"],
    ["fields=", "fields"],
    ["fields=email,,id", "fields"],
    ["fields=email,phone", "fields"],
    ["fields=Email", "fields"],
    ["fields=id&fields=email", "fields"],
  ])("refuses %s naming %s", (query, parameter) => {
    const error = signupListError(query);
    expect(error.code).toBe("invalid_parameter");
    expect(error.parameter).toBe(parameter);
    expect(error.message).toContain(`"${parameter}"`);
  });

  it("says which field is unknown, and how to write the + of an offset", () => {
    expect(signupListError("fields=email,phone").message).toContain('unknown field "phone"');
    expect(signupListError("created_until=2026-10-01T09:30:00+02:00").message).toContain("%2B");
    expect(signupListError("created_until=2026-10-01T09:30:00").message).not.toContain("%2B");
  });

  it("accepts ten custom-input filters", () => {
    const ten = Array.from({ length: 10 }, (_, index) => `input.l${index}=v`).join("&");
    expect(parseSignupListQuery(new URLSearchParams(ten)).filter.inputs).toHaveLength(10);
  });
});

describe("lenient dashboard parsing", () => {
  const defaults = { verified: undefined, referral: undefined, createdSince: undefined, createdUntil: undefined, email: undefined, emailContains: undefined, inputs: [], facet: undefined, facet_q: undefined, sort: "created_at", dir: "desc", page: 1, size: 25 };

  it("keeps valid values", () => {
    expect(
      parseSignupTableParams({
        verified: "true",
        referral: "false",
        email_contains: " ann ",
        created_since: "2026-10-01",
        created_until: "2026-11-01",
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
      createdSince: new Date("2026-10-01T00:00:00Z"),
      createdUntil: new Date("2026-11-01T00:00:00Z"),
      email: undefined,
      emailContains: "ann",
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
    expect(parseSignupTableParams({ verified: "maybe", email_contains: "   ", email: "", sort: "id; drop", dir: "up", page: "-2", size: "30" })).toEqual(defaults);
    expect(parseSignupTableParams({ size: ["50", "100"] }).size).toBe(50);
    expect(parseSignupTableParams({ "input.company": ["Acme", "Globex"] }).inputs).toEqual([{ label: "company", value: "Acme" }]);
  });

  it.each([["2026-02-30"], ["2026-10-1"], ["2026-10-01T00:00:00"], ["yesterday"], ["2026-10-01T25:00:00Z"], [""]])("ignores the instant %j", (day) => {
    expect(parseSignupTableParams({ created_since: day, created_until: day })).toEqual(defaults);
  });

  it("reads the instants /v1 reads, and ignores the old names (the proxy renames them)", () => {
    expect(parseSignupTableParams({ created_since: "2026-10-01T09:30:00+02:00" }).createdSince).toEqual(new Date("2026-10-01T07:30:00Z"));
    expect(parseSignupTableParams({ from: "2026-10-01", to: "2026-10-31", q: "ann" })).toEqual(defaults);
  });

  it("drops an end not after the start, keeps a one-day range", () => {
    expect(parseSignupTableParams({ created_since: "2026-10-05", created_until: "2026-10-05" })).toMatchObject({ createdSince: new Date("2026-10-05T00:00:00Z"), createdUntil: undefined });
    expect(parseSignupTableParams({ created_since: "2026-10-05", created_until: "2026-10-06" })).toMatchObject({ createdSince: new Date("2026-10-05T00:00:00Z"), createdUntil: new Date("2026-10-06T00:00:00Z") });
  });

  it("reads every filter /v1 has, under the same name and in the same forms", () => {
    const state = parseSignupTableParams({ verified: "false", referral: "true", created_since: "2026-10-01", created_until: "2026-10-02T12:00:00Z", email: " Ann@Example.com ", email_contains: "ann" });
    const api = parseSignupListQuery(new URLSearchParams({ verified: "false", referral: "true", created_since: "2026-10-01", created_until: "2026-10-02T12:00:00Z", email: "Ann@Example.com", email_contains: "ann" })).filter;
    expect(tableScope("w", state)).toEqual({ waitlistId: "w", ...api });
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
  it("turns the URL state into the shared filter, under the same names as /v1", () => {
    const state = parseSignupTableParams({ verified: "true", email_contains: "Ann", created_since: "2026-10-01", created_until: "2026-11-01", "input.company": "Acme" });
    expect(tableScope("w", state)).toEqual({
      waitlistId: "w",
      verified: true,
      referral: undefined,
      createdSince: new Date("2026-10-01T00:00:00Z"),
      createdUntil: new Date("2026-11-01T00:00:00Z"),
      emailContains: "Ann",
      inputs: [{ label: "company", value: "Acme" }],
    });
    expect(tableScope("w", parseSignupTableParams({}))).toEqual({ waitlistId: "w" });
  });
});
