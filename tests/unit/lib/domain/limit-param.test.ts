import { describe, expect, it } from "vitest";
import { limitParam } from "@/lib/domain/limit-param";

const limit = limitParam(10_000, "must be an integer from 1 to 10000");
const refusal = (value: string) => limit.safeParse(value).error?.issues[0]?.message;

describe("limitParam", () => {
  it("reads a whole number from 1 to its maximum", () => {
    expect(limit.parse("1")).toBe(1);
    expect(limit.parse("0050")).toBe(50);
    expect(limit.parse("10000")).toBe(10_000);
  });

  it("refuses anything else with its one message", () => {
    for (const value of ["0", "10001", "", "1.5", "-1", " 5", "5e3", "0x10", "12345678", "99999999999999999999"]) {
      expect(refusal(value), value).toBe("must be an integer from 1 to 10000");
    }
  });
});
