import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { parseApiQuery, parseSignupTableParams, signupListParamsSchema, waitlistListParamsSchema } from "@/lib/domain/list-params";

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
  it("keeps valid values", () => {
    expect(parseSignupTableParams({ verified: "true", referral: "false", q: " ann ", sort: "email", dir: "asc", page: "3", size: "100" })).toEqual({
      verified: true,
      referral: false,
      q: "ann",
      sort: "email",
      dir: "asc",
      page: 3,
      size: 100,
    });
  });

  it("falls back to defaults for bad values and takes the first of repeated ones", () => {
    expect(parseSignupTableParams({ verified: "maybe", q: "   ", sort: "id; drop", dir: "up", page: "-2", size: "30" })).toEqual({
      verified: undefined,
      referral: undefined,
      q: undefined,
      sort: "created_at",
      dir: "desc",
      page: 1,
      size: 25,
    });
    expect(parseSignupTableParams({ size: ["50", "100"] }).size).toBe(50);
  });
});
