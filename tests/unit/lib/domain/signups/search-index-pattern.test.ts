import { describe, expect, it } from "vitest";
import { searchIndexPattern } from "@/lib/domain/signups/scope-sql";

describe("the pattern the email search index looks up", () => {
  it("is an address's part before the @ when that part has a trigram", () => {
    expect(searchIndexPattern("Jane.Doe@gmail.com")).toBe("%Jane.Doe%");
    expect(searchIndexPattern("ana@")).toBe("%ana%");
  });

  it("is the whole text without an @, or when the part before it is shorter than a trigram", () => {
    expect(searchIndexPattern("gmail.com")).toBe("%gmail.com%");
    expect(searchIndexPattern("@acme.com")).toBe("%@acme.com%");
    expect(searchIndexPattern("jo@x.io")).toBe("%jo@x.io%");
  });
});
