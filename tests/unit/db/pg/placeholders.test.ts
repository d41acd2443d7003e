import { describe, expect, it } from "vitest";
import { numberedPlaceholders, postgresText } from "@/db/pg/placeholders";

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

describe("postgresText", () => {
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
