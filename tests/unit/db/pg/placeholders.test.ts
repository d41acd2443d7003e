import { describe, expect, it } from "vitest";
import { postgresText } from "@/db/pg/placeholders";

describe("postgresText, its values", () => {
  it("numbers each value placeholder in order", () => {
    expect(postgresText("select * from signups where waitlist_id = ? and id > ? limit ?")).toBe("select * from signups where waitlist_id = $1 and id > $2 limit $3");
  });

  it("leaves a ? inside string literals, quoted names and comments as text", () => {
    expect(postgresText(`select '?', 'it''s ?', "a?b" from t -- why?\nwhere x = ? /* and ? */ and y = ?`)).toBe(
      `select '?', 'it''s ?', "a?b" from t -- why?\nwhere x = $1 /* and ? */ and y = $2`,
    );
  });

  it("keeps a statement without placeholders, and one that ends inside a literal, as they are", () => {
    expect(postgresText("BEGIN")).toBe("BEGIN");
    expect(postgresText("select 'unclosed ?")).toBe("select 'unclosed ?");
  });
});

describe("postgresText, names", () => {
  it("quotes a camelCase name, which PostgreSQL would fold to lower case, wherever it is used", () => {
    expect(postgresText(`SELECT window_end AS windowEnd FROM t ORDER BY windowEnd, "keptAs" -- asIs`)).toBe(`SELECT window_end AS "windowEnd" FROM t ORDER BY "windowEnd", "keptAs" -- asIs`);
  });

  it("names an upsert's conflict target by its bare columns, as PostgreSQL wants them", () => {
    expect(postgresText(`insert into "t" ("a", "b") values (?, ?) on conflict ("t"."a", "t"."b") do update set "b" = ?`)).toBe(`insert into "t" ("a", "b") values ($1, $2) on conflict ("a", "b") do update set "b" = $3`);
  });
});

describe("postgresText, an insert of the builder", () => {
  it("gives a column with no value its default (an identity column refuses NULL), and leaves values alone", () => {
    expect(postgresText(`insert into "audit_log" ("id", "at", "actor") values (null, ?, ?), (null, ?, ?) returning "id"`)).toBe(`insert into "audit_log" ("id", "at", "actor") values (default, $1, $2), (default, $3, $4) returning "id"`);
    expect(postgresText(`insert into "t" ("a", "b") values (?, null) on conflict ("t"."a") do update set "b" = null`)).toBe(`insert into "t" ("a", "b") values ($1, default) on conflict ("a") do update set "b" = null`);
  });
});
