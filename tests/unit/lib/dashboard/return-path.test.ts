import { describe, expect, it } from "vitest";
import { safeReturnPath, signInHref } from "@/lib/dashboard/return-path";

/** Paths that resolve (dot segments removed, "\" read as "/") to "//host" or "/\host": another site. */
const LEAVES_OUR_ORIGIN = [
  "//evil.example",
  "/\\evil.example",
  "/\\\\evil.example",
  "/.//evil.example",
  "/..//evil.example",
  "/%2e//evil.example",
  "/%2E//evil.example",
  "/.%2e//evil.example",
  "/%2e%2e//evil.example",
  "/a/..//evil.example",
  "/a/%2e%2e//evil.example",
  "/a/b/../..//evil.example",
  "/.\\/evil.example",
  "/a\\..\\\\evil.example",
  "/./\\evil.example",
];

describe("safeReturnPath", () => {
  it("keeps same-site paths with their query", () => {
    expect(safeReturnPath("/waitlists/abc?verified=true&page=2")).toBe("/waitlists/abc?verified=true&page=2");
    expect(safeReturnPath("/")).toBe("/");
  });

  it.each(LEAVES_OUR_ORIGIN)("refuses %j, which resolves to another host", (candidate) => {
    expect(safeReturnPath(candidate)).toBe("/");
  });

  it.each([
    "https://evil.example/",
    "javascript:alert(1)",
    "waitlists",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n//evil.example",
    "/.\t//evil.example",
    "\t//evil.example",
    " //evil.example",
    "",
    null,
    undefined,
    "/signin?next=/x",
    "/./signin?next=//evil.example",
  ])("refuses %j", (candidate) => {
    expect(safeReturnPath(candidate)).toBe("/");
  });

  it.each([
    ["/%2F/evil.example", "/%2F/evil.example"],
    ["/%5C/evil.example", "/%5C/evil.example"],
    ["/%2f%2fevil.example", "/%2f%2fevil.example"],
    ["/./waitlists/a", "/waitlists/a"],
    ["/a/../waitlists/b?q=x", "/waitlists/b?q=x"],
  ])("keeps %j on our origin as %j", (candidate, expected) => {
    expect(safeReturnPath(candidate)).toBe(expected);
  });

  it("never returns anything a browser would read as another host", () => {
    const samples = [...LEAVES_OUR_ORIGIN, "/%2F/x", "/%5C/x", "/x?a=\\b", "/x#//evil.example"];
    for (const candidate of samples) {
      const result = safeReturnPath(candidate);
      expect(result, candidate).toMatch(/^\/(?![/\\])/);
      expect(new URL(result, "https://our.example").origin, candidate).toBe("https://our.example");
    }
  });

  it("builds the sign-in link", () => {
    expect(signInHref("/")).toBe("/signin");
    expect(signInHref("/waitlists/a?q=x")).toBe("/signin?next=%2Fwaitlists%2Fa%3Fq%3Dx");
    expect(signInHref("//evil.example")).toBe("/signin");
    expect(signInHref("/.//evil.example")).toBe("/signin");
  });

  it("puts the reason a session ended into the sign-in link", () => {
    expect(signInHref("/", "revoked")).toBe("/signin?reason=revoked");
    expect(signInHref("/waitlists/a", "session-expired")).toBe("/signin?reason=session-expired&next=%2Fwaitlists%2Fa");
    expect(signInHref("/.//evil.example", "key-expired")).toBe("/signin?reason=key-expired");
  });
});
