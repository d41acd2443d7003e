import { describe, expect, it } from "vitest";
import { DEFAULT_SIGNUP_TABLE, shellWord, signupApiPath, signupCliCommand, signupExportHref, signupTableHref, withInput } from "@/lib/dashboard/signup-table-url";
import { parseSignupTableParams } from "@/lib/dashboard/signup-table";
import { parseWaitlistTableParams } from "@/lib/dashboard/waitlist-table";

describe("dashboard URL state", () => {
  it("has the defaults of the shared parser", () => {
    expect(DEFAULT_SIGNUP_TABLE).toEqual(parseSignupTableParams({}));
  });

  it("round-trips a state through its URL", () => {
    const state = parseSignupTableParams({
      verified: "true",
      referral: "false",
      q: "ann",
      from: "2026-10-01",
      to: "2026-10-02",
      "input.company": "Acme & Co",
      "input.rôle": "a=b",
      sort: "email",
      dir: "asc",
      page: "3",
      size: "50",
    });
    const href = signupTableHref("id", state, { page: 3 });
    const parsed = parseSignupTableParams(Object.fromEntries(new URL(href, "http://x").searchParams));
    expect(parsed).toEqual(state);
  });

  it("goes back to page 1 when anything but the page changes", () => {
    const state = parseSignupTableParams({ page: "4" });
    expect(signupTableHref("id", state, { verified: true })).toBe("/waitlists/id?verified=true");
    expect(signupTableHref("id", state, { page: 5 })).toBe("/waitlists/id?page=5");
  });

  it("keeps every filter when one changes, and drops a facet's value search", () => {
    const state = parseSignupTableParams({ q: "x", from: "2026-10-01", "input.company": "Acme", facet: "role", facet_q: "eng", page: "2" });
    expect(signupTableHref("id", state, { inputs: withInput(state.inputs, "role", "Engineer") })).toBe(
      "/waitlists/id?q=x&from=2026-10-01&input.company=Acme&input.role=Engineer",
    );
    expect(signupTableHref("id", state, { inputs: withInput(state.inputs, "company", undefined) })).toBe("/waitlists/id?q=x&from=2026-10-01");
    expect(signupTableHref("id", state, { page: 3, facet_q: state.facet_q })).toBe("/waitlists/id?q=x&from=2026-10-01&input.company=Acme&facet=role&facet_q=eng&page=3");
  });

  it("builds the API, CLI and export links from every filter, the search included", () => {
    const state = parseSignupTableParams({ verified: "false", q: "x", from: "2026-10-01", to: "2026-10-31", "input.company": "Acme Inc", page: "2", sort: "email" });
    expect(signupApiPath("id", state)).toBe("/v1/waitlist/id/signup?verified=false&created_since=2026-10-01&created_until=2026-11-01&email_contains=x&input.company=Acme+Inc");
    expect(signupCliCommand("id", state)).toBe(
      "npm run --silent cli -- signups export --waitlist id --verified false --created-since 2026-10-01 --created-until 2026-11-01 --email-contains x --input 'company=Acme Inc'",
    );
    expect(signupExportHref("id", state)).toBe("/waitlists/id/export?verified=false&q=x&from=2026-10-01&to=2026-10-31&input.company=Acme+Inc");
    expect(signupApiPath("id", parseSignupTableParams({ page: "2" }))).toBe("/v1/waitlist/id/signup");
  });

  it("quotes shell words that need it", () => {
    expect(shellWord("--input")).toBe("--input");
    expect(shellWord("company=O'Brien & Sons")).toBe(`'company=O'\\''Brien & Sons'`);
    expect(shellWord("$(rm -rf ~)")).toBe("'$(rm -rf ~)'");
    expect(shellWord("")).toBe("''");
  });

  it("falls back to defaults for invalid overview values", () => {
    expect(parseWaitlistTableParams({ sort: "drop table", dir: "up", q: ["a", "b"] })).toEqual({ q: "a", sort: "name", dir: "asc" });
  });
});
