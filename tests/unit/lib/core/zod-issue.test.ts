import { describe, expect, it } from "vitest";
import { z } from "zod";
import { firstIssueOf } from "@/lib/core/zod-issue";

const schema = z.strictObject({ email: z.string().min(1, "must not be empty"), inputs: z.array(z.strictObject({ label: z.string() })).optional() });
const issueOf = (input: unknown) => firstIssueOf(schema.safeParse(input).error!);

describe("firstIssueOf", () => {
  it("names a top-level field by its key, at depth 1", () => {
    expect(issueOf({ email: "" })).toEqual({ message: "must not be empty", where: "email", key: "email", unknownKey: undefined, depth: 1 });
  });

  it("names a nested field by its dotted path and its top-level key", () => {
    expect(issueOf({ email: "a", inputs: [{ label: 3 }] })).toMatchObject({ where: "inputs.0.label", key: "inputs", depth: 3 });
  });

  it("names an unknown key, at the top (no path) and nested (the path of its object)", () => {
    expect(issueOf({ email: "a", extra: 1 })).toMatchObject({ where: undefined, key: undefined, unknownKey: "extra", depth: 0 });
    expect(issueOf({ email: "a", inputs: [{ label: "x", other: 1 }] })).toMatchObject({ where: "inputs.0", key: "inputs", unknownKey: "other" });
  });

  it("says nothing of a place for the input as a whole", () => {
    expect(firstIssueOf(z.string().safeParse(1).error!)).toMatchObject({ where: undefined, key: undefined, unknownKey: undefined, depth: 0 });
  });
});
