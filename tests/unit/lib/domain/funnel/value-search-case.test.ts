import { beforeEach, describe, expect, it } from "vitest";
import type { AppDatabase } from "@/db/client";
import { sourceFacetValues } from "@/lib/domain/funnel/facets";
import { startBulkInsert } from "@/lib/domain/signups/bulk-insert";
import { writeTransaction } from "@/lib/store/transaction";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { blockDatabase, SQLITE_AND_PGLITE } from "@/tests/support/each-engine";

// A source facet's value search matches in any case, as the custom inputs' does: SQLite's LIKE
// ignores the case of ASCII letters, PostgreSQL's does not, so "LETTER-2" found nothing there.

describe.each(SQLITE_AND_PGLITE)("a source facet's value search: $engine", ({ open }) => {
  const database = blockDatabase(open);
  let db!: AppDatabase;
  beforeEach(() => {
    db = database();
  });

  it("finds a value whatever the case of the text typed, and takes % and _ literally", async () => {
    const { id: waitlistId } = await createWaitlist({ name: "Sources", website: "https://sources.example" }, db);
    const sources = ["newsletter-2", "newsletter-2", "Newsletter-12", "newsletter-3", "news_letter"];
    await writeTransaction(db, async () => {
      const bulk = startBulkInsert(waitlistId, db);
      await bulk.add(sources.map((source, index) => ({ email: `s${index}@sources.example`, verified: true, referral: false, customInputs: "[]", createdAt: Date.UTC(2026, 0, 1, index), source: { utm_source: source } })), Date.now());
      await bulk.finish();
    });
    const search = async (text: string) => (await sourceFacetValues({ waitlistId }, "utm_source", text, 10, db))!.values;
    expect(await search("LETTER-2")).toEqual([{ value: "newsletter-2", count: 2 }]);
    expect(await search("letter-1")).toEqual([{ value: "Newsletter-12", count: 1 }]);
    expect(await search("news_")).toEqual([{ value: "news_letter", count: 1 }]);
    expect(await search("%")).toEqual([]);
  });
});
