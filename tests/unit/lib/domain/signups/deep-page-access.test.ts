import { describe, expect, it } from "vitest";
import { deepPageAccess, type AccessPlan } from "@/lib/domain/signups/access";
import { pgDialect, sqliteDialect } from "@/lib/store/dialect";

// An offset page deep into a scope that few signups match: walking the list in order to reach it reads
// about reach ÷ density rows (all of a 1M list for the last page of an input 1 % have), where collecting
// the input's signups and sorting them reads just those. PostgreSQL's pages take the cheaper one.

// A 1M list filtered on an input 10,496 signups have (company=Tyrell in the bench's data set).
const sparse: AccessPlan = {
  rows: "order",
  rowsAnyOrder: "order",
  count: "input0",
  capped: "order",
  bound: 10_496,
  searchOverCap: false,
  rangeShare: 1,
  density: 10_496 / 1_000_000,
  collected: { access: "input0", size: 10_496 },
};

describe("deep offset pages", () => {
  it("collect the scope's rows once the walk to the page would read more than collecting them costs", () => {
    expect(deepPageAccess(sparse, "order", 25)).toBe("order");
    expect(deepPageAccess(sparse, "order", 10_000)).toBe("input0");
  });

  it("keep walking a dense input to the deepest reachable page (company=Acme, 93,563 of 1M)", () => {
    const dense = { ...sparse, density: 93_563 / 1_000_000, collected: { access: "input0" as const, size: 93_563 } };
    expect(deepPageAccess(dense, "order", 10_000)).toBe("order");
  });

  it("leave other accesses, and scopes without a collecting access, as planned", () => {
    expect(deepPageAccess(sparse, "status", 10_000)).toBe("status");
    expect(deepPageAccess({ ...sparse, collected: undefined }, "order", 10_000)).toBe("order");
    expect(deepPageAccess({ ...sparse, collected: { access: "search", size: Number.POSITIVE_INFINITY } }, "order", 10_000)).toBe("order");
  });

  it("are chosen so on PostgreSQL only: SQLite's pages walk as they always have", () => {
    expect(pgDialect.collectsDeepPages).toBe(true);
    expect(sqliteDialect.collectsDeepPages).toBe(false);
  });
});
