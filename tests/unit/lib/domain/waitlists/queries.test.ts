import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Waitlist } from "@/db/schema";
import { AppError } from "@/lib/core/errors";
import { cachedCountSignups } from "@/lib/domain/signups/cached-stats";
import { countSignups } from "@/lib/domain/signups/counts";
import { createWaitlist, getWaitlist, getWaitlistOrThrow, httpUrlSchema, listWaitlists, newWaitlistSchema, listWaitlistSummaries, signupTotals } from "@/lib/domain/waitlists/queries";
import { toWaitlistResponse } from "@/lib/domain/waitlists/response";
import { memoizeWhileUnchanged } from "@/lib/store/memoize";
import { inTurn, upTo } from "@/tests/support/in-turn";
import { insertSignups } from "@/tests/support/insert-signups";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

describe("waitlists", () => {
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
    it("creates, fetches (case-insensitively by id) and shapes a waitlist", async () => {
      const created = await createWaitlist({ name: "Beta", website: "https://example.com" }, temp.db);
      expect(created.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(await getWaitlist(created.id.toUpperCase(), temp.db)).toEqual(created);
      expect(toWaitlistResponse(await getWaitlistOrThrow(created.id, temp.db))).toEqual({ id: created.id, name: "Beta", website: "https://example.com/" });
    });

    it("throws a not_found AppError for an unknown id", async () => {
      await expect(getWaitlistOrThrow("00000000-0000-4000-8000-000000000000", temp.db)).rejects.toThrow(AppError);
      try {
        await getWaitlistOrThrow("nope", temp.db);
      } catch (error) {
        expect((error as AppError).code).toBe("not_found");
      }
    });

    it("refuses a bad website and writes nothing", async () => {
      await expect(createWaitlist({ name: "X", website: "ftp://example.com" }, temp.db)).rejects.toThrow();
      expect((await listWaitlists({}, temp.db)).items).toEqual([]);
    });

    it("walks keyset pages in creation order, every waitlist exactly once", async () => {
      const ids = await inTurn(upTo(7), async (index) => (await createWaitlist({ name: `W${index}`, website: "https://e.com" }, temp.db)).id);
      // Same created_at for a few rows: ties are ordered by id.
      temp.db.$client.prepare("UPDATE waitlists SET created_at = 1000 WHERE id IN (?, ?, ?)").run(ids[0], ids[1], ids[2]);
      const expected = (await listWaitlists({}, temp.db)).items.map((row) => row.id);
      expect([...expected].sort()).toEqual([...ids].sort());
      const seen: string[] = [];
      let page = await listWaitlists({ limit: 2 }, temp.db);
      for (;;) {
        seen.push(...page.items.map((row) => row.id));
        if (!page.next) break;
        page = await listWaitlists({ limit: 2, after: page.next }, temp.db);
      }
      expect(seen).toEqual(expected);
    });
  });
});

describe("waitlist summaries", () => {
  const { db } = tempDatabase();

  function addSignup(waitlistId: string, email: string, verified: boolean, referral: boolean, createdAt: number) {
    insertSignups(waitlistId, [{ email, verified, referral, customInputs: "[]", createdAt }], db);
  }

  describe("listWaitlistSummaries", () => {
    let alpha: Waitlist;
    let beta: Waitlist;
    let empty: Waitlist;
    beforeAll(async () => {
      alpha = await createWaitlist({ name: "Alpha", website: "https://a.example" }, db);
      beta = await createWaitlist({ name: "beta_list", website: "https://b.example" }, db);
      empty = await createWaitlist({ name: "Empty", website: "https://e.example" }, db);
      addSignup(alpha.id, "a1@x.com", true, false, 1000);
      addSignup(alpha.id, "a2@x.com", true, true, 3000);
      addSignup(alpha.id, "a3@x.com", false, false, 2000);
      addSignup(beta.id, "b1@x.com", false, true, 5000);
    });

    it("aggregates every list, including lists without signups", async () => {
      const byName = Object.fromEntries((await listWaitlistSummaries({}, db)).map((row) => [row.name, row]));
      expect(byName.Alpha).toMatchObject({ id: alpha.id, total: 3, verified: 2, referral: 1, newestSignupAt: new Date(3000) });
      expect(byName.beta_list).toMatchObject({ total: 1, verified: 0, referral: 1, newestSignupAt: new Date(5000) });
      expect(byName.Empty).toMatchObject({ id: empty.id, total: 0, verified: 0, referral: 0, newestSignupAt: null });
    });

    it("sorts by whitelisted columns; lists without signups sort last", async () => {
      expect((await listWaitlistSummaries({ sort: "name" }, db)).map((row) => row.name)).toEqual(["Alpha", "beta_list", "Empty"]);
      expect((await listWaitlistSummaries({ sort: "total", direction: "desc" }, db)).map((row) => row.name)).toEqual(["Alpha", "beta_list", "Empty"]);
      expect((await listWaitlistSummaries({ sort: "verified", direction: "asc" }, db)).map((row) => row.name)).toEqual(["beta_list", "Alpha", "Empty"]);
      expect((await listWaitlistSummaries({ sort: "newest", direction: "desc" }, db)).map((row) => row.name)).toEqual(["beta_list", "Alpha", "Empty"]);
    });

    it("searches names case-insensitively, with LIKE wildcards taken literally", async () => {
      expect((await listWaitlistSummaries({ search: "ALP" }, db)).map((row) => row.name)).toEqual(["Alpha"]);
      expect((await listWaitlistSummaries({ search: "_" }, db)).map((row) => row.name)).toEqual(["beta_list"]);
      expect(await listWaitlistSummaries({ search: "%" }, db)).toEqual([]);
    });

    it("signupTotals gives every list's total from one grouped count; lists without signups are absent", async () => {
      const totals = await signupTotals(db);
      expect(totals.get(alpha.id)).toBe((await countSignups({ waitlistId: alpha.id }, db)).total);
      expect(totals.get(beta.id)).toBe(1);
      expect(totals.has(empty.id)).toBe(false);
    });

    it("cached counts equal fresh counts and follow writes", async () => {
      const scope = { waitlistId: alpha.id, verified: true };
      expect(await cachedCountSignups(scope, db)).toEqual(await countSignups(scope, db));
      addSignup(alpha.id, "a4@x.com", true, false, 4000);
      expect((await cachedCountSignups(scope, db)).total).toBe(3);
      expect(await cachedCountSignups(scope, db)).toEqual(await countSignups(scope, db));
    });

    it("memoizes until the database changes or a minute passes", async () => {
      let calls = 0;
      const compute = async () => ++calls;
      expect(await memoizeWhileUnchanged(db, "k", compute, 0)).toBe(1);
      expect(await memoizeWhileUnchanged(db, "k", compute, 1000)).toBe(1);
      expect(await memoizeWhileUnchanged(db, "k", compute, 61_000)).toBe(2);
    });
  });
});
