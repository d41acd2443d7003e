import { describe, expect, it } from "vitest";
import { DEFAULT_SIGNUP_TABLE, signupApiPath, signupExportHref, signupTableHref } from "@/app/(dashboard)/waitlists/[id]/table-url";
import { parseSignupTableParams, parseWaitlistTableParams } from "@/lib/domain/list-params";

describe("dashboard URL state", () => {
  it("has the defaults of the shared parser", () => {
    expect(DEFAULT_SIGNUP_TABLE).toEqual(parseSignupTableParams({}));
  });

  it("round-trips a state through its URL", () => {
    const state = parseSignupTableParams({ verified: "true", referral: "false", q: "ann", sort: "email", dir: "asc", page: "3", size: "50" });
    const href = signupTableHref("id", state, { page: 3 });
    const parsed = parseSignupTableParams(Object.fromEntries(new URL(href, "http://x").searchParams));
    expect(parsed).toEqual(state);
  });

  it("goes back to page 1 when anything but the page changes", () => {
    const state = parseSignupTableParams({ page: "4" });
    expect(signupTableHref("id", state, { verified: true })).toBe("/waitlists/id?verified=true");
    expect(signupTableHref("id", state, { page: 5 })).toBe("/waitlists/id?page=5");
  });

  it("builds the API and export links from the filters", () => {
    const state = parseSignupTableParams({ verified: "false", q: "x", page: "2" });
    expect(signupApiPath("id", state)).toBe("/v1/waitlist/id/signup?verified=false");
    expect(signupExportHref("id", state)).toBe("/waitlists/id/export?verified=false&q=x");
  });

  it("falls back to defaults for invalid overview values", () => {
    expect(parseWaitlistTableParams({ sort: "drop table", dir: "up", q: ["a", "b"] })).toEqual({ q: "a", sort: "name", dir: "asc" });
  });
});
