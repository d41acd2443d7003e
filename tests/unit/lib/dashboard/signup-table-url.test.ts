import { describe, expect, it } from "vitest";
import { renamedFilterQuery } from "@/lib/dashboard/legacy-filter-names";
import { dayRange, DEFAULT_SIGNUP_TABLE, shellWord, withDays, signupApiPath, signupCliCommand, signupExportHref, signupTableHref, withInput } from "@/lib/dashboard/signup-table-url";
import { parseSignupTableParams } from "@/lib/dashboard/signup-table";
import { parseWaitlistTableParams } from "@/lib/dashboard/waitlist-table";
import { FILTER_KEYS } from "@/lib/domain/signups/filter";

describe("dashboard URL state", () => {
  it("has the defaults of the shared parser", () => {
    expect(DEFAULT_SIGNUP_TABLE).toEqual(parseSignupTableParams({}));
  });

  it("round-trips a state through its URL", () => {
    const state = parseSignupTableParams({
      verified: "true",
      referral: "false",
      status: "invited,rejected",
      email: "ann@example.com",
      email_contains: "ann",
      referred_by: "42",
      flag: "disposable,burst",
      milestone: "Early bird,Early access",
      created_since: "2026-10-01",
      created_until: "2026-10-02T09:30:00.000Z",
      utm_source: "news letter & co",
      utm_medium: "email",
      utm_campaign: "launch=1",
      referrer: "news.ycombinator.com",
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
    // Every filter of the list is set, so a filter the URL would drop fails here.
    expect(FILTER_KEYS.filter((key) => state[key] === undefined)).toEqual([]);
  });

  it("goes back to page 1 when anything but the page changes", () => {
    const state = parseSignupTableParams({ page: "4" });
    expect(signupTableHref("id", state, { verified: true })).toBe("/waitlists/id?verified=true");
    expect(signupTableHref("id", state, { page: 5 })).toBe("/waitlists/id?page=5");
  });

  it("keeps every filter when one changes, and drops a facet's value search", () => {
    const state = parseSignupTableParams({ email_contains: "x", created_since: "2026-10-01", "input.company": "Acme", facet: "role", facet_q: "eng", page: "2" });
    expect(signupTableHref("id", state, { inputs: withInput(state.inputs, "role", "Engineer") })).toBe(
      "/waitlists/id?created_since=2026-10-01&email_contains=x&input.company=Acme&input.role=Engineer",
    );
    expect(signupTableHref("id", state, { inputs: withInput(state.inputs, "company", undefined) })).toBe("/waitlists/id?created_since=2026-10-01&email_contains=x");
    expect(signupTableHref("id", state, { page: 3, facet_q: state.facet_q })).toBe("/waitlists/id?created_since=2026-10-01&email_contains=x&input.company=Acme&facet=role&facet_q=eng&page=3");
  });

  it("builds the API, CLI and export links from every filter, the search included", () => {
    const state = parseSignupTableParams({ verified: "false", email_contains: "x", created_since: "2026-10-01", created_until: "2026-11-01", "input.company": "Acme Inc", page: "2", sort: "email" });
    expect(signupApiPath("id", state)).toBe("/v1/waitlist/id/signup?verified=false&created_since=2026-10-01&created_until=2026-11-01&email_contains=x&input.company=Acme+Inc");
    expect(signupCliCommand("id", state)).toBe(
      "npm run --silent cli -- signups export --waitlist id --verified false --created-since 2026-10-01 --created-until 2026-11-01 --email-contains x --input 'company=Acme Inc'",
    );
    expect(signupExportHref("id", state)).toBe("/waitlists/id/export?verified=false&created_since=2026-10-01&created_until=2026-11-01&email_contains=x&input.company=Acme+Inc");
    expect(signupApiPath("id", parseSignupTableParams({ page: "2" }))).toBe("/v1/waitlist/id/signup");
  });

  it("shows the range as the days of the From and To inputs (To included) and sets it from them", () => {
    const state = parseSignupTableParams({ created_since: "2026-10-01", created_until: "2026-11-01" });
    expect(dayRange(state)).toEqual({ from: "2026-10-01", to: "2026-10-31" });
    expect(withDays("2026-10-01", "2026-10-31")).toEqual({ createdSince: state.createdSince, createdUntil: state.createdUntil });
    expect(signupTableHref("id", state, withDays("2026-10-05", "2026-10-05"))).toBe("/waitlists/id?created_since=2026-10-05&created_until=2026-10-06");
    expect(dayRange(parseSignupTableParams({ created_until: "2026-11-01T09:30:00Z" }))).toEqual({ from: undefined, to: "2026-11-01" });
  });

  it("renames the old from, to and q of a waitlist page or its export, keeping the other parameters", () => {
    const renamed = (path: string, query: string) => renamedFilterQuery(path, new URLSearchParams(query))?.toString();
    expect(renamed("/waitlists/id", "verified=true&from=2026-10-01&to=2026-10-31&q=ann&page=2")).toBe("verified=true&created_since=2026-10-01&created_until=2026-11-01&email_contains=ann&page=2");
    expect(renamed("/waitlists/id/export", "to=2026-12-31&input.company=Acme")).toBe("created_until=2027-01-01&input.company=Acme");
    // Empty fields of a form submitted without JavaScript are dropped; a new name wins over its old one.
    expect(renamed("/waitlists/id", "from=&to=&q=")).toBe("");
    expect(renamed("/waitlists/id", "q=old&email_contains=new")).toBe("email_contains=new");
    expect(renamed("/waitlists/id", "to=garbage")).toBe("created_until=garbage");
    expect(renamed("/waitlists/id", "created_since=2026-10-01")).toBeUndefined();
    expect(renamed("/", "q=acme")).toBeUndefined();
    expect(renamed("/waitlists/id/signups/s", "q=acme")).toBeUndefined();
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
