import { describe, expect, it } from "vitest";
import { MAX_SELECTED_IDS, parseStatusSelection, searchParamEntries } from "@/lib/dashboard/status-selection";

// The selection a dashboard status action carries in its URL and form: parsed strictly, so a bad
// value is an error naming it, never a wider selection.

const W = "0b1c2d3e-4f50-4617-8829-3a4b5c6d7e8f";
const parse = (query: string) => parseStatusSelection(W, new URLSearchParams(query));

describe("parseStatusSelection", () => {
  it("selected rows: repeated (checkboxes) or comma-separated ids, deduplicated, with the page to return to", () => {
    const chosen = parse(`ids=12&ids=7,12&return=${encodeURIComponent(`/waitlists/${W}?verified=true&page=2`)}`);
    expect(chosen.selection).toEqual({ waitlistId: W, ids: [12, 7] });
    expect(chosen.fields).toEqual({ ids: "12,7", return: `/waitlists/${W}?verified=true&page=2` });
  });

  it("a filter under the /v1 names, with or without the next N; the form's fields say the same in canonical form", () => {
    const every = parse("verified=true&status=waiting,invited&input.Role=Engineer");
    expect(every.selection).toEqual({ scope: { waitlistId: W, verified: true, status: ["waiting", "invited"], inputs: [{ label: "Role", value: "Engineer" }] }, limit: -1 });
    expect(every.returnTo).toBe(`/waitlists/${W}`);
    const next = parse("created_since=2026-10-01&limit=50");
    expect(next.limit).toBe(50);
    expect(next.fields).toMatchObject({ created_since: "2026-10-01", limit: "50" });
    expect(parseStatusSelection(W, Object.entries(next.fields)).selection).toEqual(next.selection);
  });

  it.each([
    ["ids=12x", '"12x" is not a signup id.'],
    ["ids=", "No signups are selected"],
    ["ids=1&verified=true", 'The parameter "verified" cannot be combined with selected rows'],
    ["verified=maybe", 'The query parameter "verified"'],
    ["limit=0", 'The query parameter "limit" must be a whole number from 1 to 10,000'],
    ["limit=10001", "must be a whole number from 1 to 10,000"],
    ["limit=2000000", "must be a whole number from 1 to 10,000"],
    ["page=2", 'Unknown query parameter "page"'],
    ["verified=true&verified=false", 'The parameter "verified" is given more than once.'],
    ["ids=<1,001 ids>", "At most 1,000 signups can be selected at once"],
  ])("refuses %s", (query, message) => {
    const tooMany = `ids=${Array.from({ length: MAX_SELECTED_IDS + 1 }, (_, index) => index + 1).join(",")}`;
    expect(() => parse(query === "ids=<1,001 ids>" ? tooMany : query)).toThrow(message);
  });

  it("returns only to pages of this waitlist", () => {
    for (const away of ["https://evil.example/", "//evil.example", "/keys", "/waitlists/another", `/waitlists/${W}x`]) {
      expect(parse(`limit=1&return=${encodeURIComponent(away)}`).returnTo).toBe(`/waitlists/${W}`);
    }
    expect(parse(`limit=1&return=${encodeURIComponent(`/waitlists/${W}/signups/5`)}`).returnTo).toBe(`/waitlists/${W}/signups/5`);
  });

  it("reads a page's search params with repeated names kept", () => {
    expect(searchParamEntries({ ids: ["1", "2"], verified: "true", none: undefined })).toEqual([
      ["ids", "1"],
      ["ids", "2"],
      ["verified", "true"],
    ]);
  });
});
