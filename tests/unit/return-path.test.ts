import { describe, expect, it } from "vitest";
import { safeReturnPath, signInHref } from "@/lib/return-path";

describe("safeReturnPath", () => {
  it("keeps same-site paths with their query", () => {
    expect(safeReturnPath("/waitlists/abc?verified=true&page=2")).toBe("/waitlists/abc?verified=true&page=2");
    expect(safeReturnPath("/")).toBe("/");
  });

  it.each(["//evil.example", "/\\evil.example", "https://evil.example/", "javascript:alert(1)", "waitlists", "/\t/evil.example", "", null, undefined, "/signin?next=/x"])(
    "refuses %j",
    (candidate) => {
      expect(safeReturnPath(candidate)).toBe("/");
    },
  );

  it("builds the sign-in link", () => {
    expect(signInHref("/")).toBe("/signin");
    expect(signInHref("/waitlists/a?q=x")).toBe("/signin?next=%2Fwaitlists%2Fa%3Fq%3Dx");
    expect(signInHref("//evil.example")).toBe("/signin");
  });
});
