import { describe, expect, it } from "vitest";
import { numberedPlaceholders } from "@/db/pg/placeholders";

describe("numberedPlaceholders", () => {
  it("numbers each value placeholder in order", () => {
    expect(numberedPlaceholders("select * from signups where waitlist_id = ? and id > ? limit ?")).toBe("select * from signups where waitlist_id = $1 and id > $2 limit $3");
  });

  it("leaves a ? inside string literals, quoted names and comments as text", () => {
    expect(numberedPlaceholders(`select '?', 'it''s ?', "a?b" from t -- why?\nwhere x = ? /* and ? */ and y = ?`)).toBe(
      `select '?', 'it''s ?', "a?b" from t -- why?\nwhere x = $1 /* and ? */ and y = $2`,
    );
  });

  it("keeps a statement without placeholders, and one that ends inside a literal, as they are", () => {
    expect(numberedPlaceholders("BEGIN")).toBe("BEGIN");
    expect(numberedPlaceholders("select 'unclosed ?")).toBe("select 'unclosed ?");
  });
});
