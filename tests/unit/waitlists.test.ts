import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AppError } from "@/lib/core/errors";
import { createWaitlist, getWaitlist, getWaitlistOrThrow, httpUrlSchema, listWaitlists, newWaitlistSchema } from "@/lib/domain/waitlists/queries";
import { toWaitlistResponse } from "@/lib/domain/waitlists/response";
import { tempDatabase, type TempDatabase } from "./temp-db";

let temp: TempDatabase;
beforeEach(() => (temp = tempDatabase()));
afterEach(() => temp.close());

describe("website validation", () => {
  it.each(["https://example.com", "http://example.com/path?q=1", "https://sub.example.co.uk:8443/x", "http://[::1]:3000/"])("accepts %s", (url) => {
    expect(httpUrlSchema.safeParse(url).success).toBe(true);
  });

  it.each(["", "example.com", "ftp://example.com", "javascript:alert(1)", "https://", "mailto:a@b.com", "https://exa mple.com", `https://e.com/${"a".repeat(2100)}`])(
    "refuses %j",
    (url) => {
      expect(httpUrlSchema.safeParse(url).success).toBe(false);
    },
  );

  it("trims names and refuses empty ones", () => {
    expect(newWaitlistSchema.parse({ name: "  Beta  ", website: "https://e.com" }).name).toBe("Beta");
    expect(newWaitlistSchema.safeParse({ name: "   ", website: "https://e.com" }).success).toBe(false);
  });
});

describe("waitlists", () => {
  it("creates, fetches (case-insensitively by id) and shapes a waitlist", () => {
    const created = createWaitlist({ name: "Beta", website: "https://example.com" }, temp.db);
    expect(created.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(getWaitlist(created.id.toUpperCase(), temp.db)).toEqual(created);
    expect(toWaitlistResponse(getWaitlistOrThrow(created.id, temp.db))).toEqual({ id: created.id, name: "Beta", website: "https://example.com/" });
  });

  it("throws a not_found AppError for an unknown id", () => {
    expect(() => getWaitlistOrThrow("00000000-0000-4000-8000-000000000000", temp.db)).toThrow(AppError);
    try {
      getWaitlistOrThrow("nope", temp.db);
    } catch (error) {
      expect((error as AppError).code).toBe("not_found");
    }
  });

  it("refuses a bad website and writes nothing", () => {
    expect(() => createWaitlist({ name: "X", website: "ftp://example.com" }, temp.db)).toThrow();
    expect(listWaitlists({}, temp.db).items).toEqual([]);
  });

  it("walks keyset pages in creation order, every waitlist exactly once", () => {
    const ids = Array.from({ length: 7 }, (_, index) => createWaitlist({ name: `W${index}`, website: "https://e.com" }, temp.db).id);
    // Same created_at for a few rows: ties are ordered by id.
    temp.db.$client.prepare("UPDATE waitlists SET created_at = 1000 WHERE id IN (?, ?, ?)").run(ids[0], ids[1], ids[2]);
    const expected = listWaitlists({}, temp.db).items.map((row) => row.id);
    expect([...expected].sort()).toEqual([...ids].sort());
    const seen: string[] = [];
    let page = listWaitlists({ limit: 2 }, temp.db);
    for (;;) {
      seen.push(...page.items.map((row) => row.id));
      if (!page.next) break;
      page = listWaitlists({ limit: 2, after: page.next }, temp.db);
    }
    expect(seen).toEqual(expected);
  });
});
