import { beforeEach, describe, expect, it } from "vitest";
import type { AppDatabase } from "@/db/client";
import { signupPosition, signupPositions } from "@/lib/domain/joining/position";
import { keyJustAhead, lineSignup, lineSlice, moveInLine, waitingAhead, type LineKey } from "@/lib/domain/ranking/line";
import { signupJsonLinePage } from "@/lib/domain/signups/queries";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { blockDatabase, SQLITE_AND_PGLITE } from "@/tests/support/each-engine";

// The line read from a moved signup's place, whose pos is a fraction (a referral stood it between two
// others): the unmoved signups are compared with it by (created_at, id). PostgreSQL took that value as
// the id's bigint and refused the fraction, so a second move of a referrer, the next page of /v1's
// sort=position after a moved signup, and the place of a moved signup (a ranked list's joins) failed there.

const T = Date.UTC(2026, 0, 1);

describe.each(SQLITE_AND_PGLITE)("the line around a moved signup: $engine", ({ open }) => {
  const database = blockDatabase(open);
  let db!: AppDatabase;
  beforeEach(() => {
    db = database();
  });

  it("reads ahead of it, after it and a page after it, in place order, the unmoved ones by id among the same created_at", async () => {
    const { id: waitlistId } = await createWaitlist({ name: "Line", website: "https://line.example" }, db);
    const emails = ["a", "b", "c", "d", "e"].map((name) => `${name}@line.example`);
    for (const email of emails) await db.$engine.prepare("INSERT INTO signups (waitlist_id, email, created_at) VALUES (?, ?, ?)").run([waitlistId, email, T]);
    const ids = (await db.$engine.prepare("SELECT id FROM signups WHERE waitlist_id = ? ORDER BY id").values([waitlistId])).map((row) => Number(row[0]));
    const keyOf = async (id: number): Promise<LineKey> => (await lineSignup(id, db))!.key;
    const [a, b, c, d, e] = ids as [number, number, number, number, number];
    // e stands between b and c: at (T, the midpoint of their ids), a fraction.
    await moveInLine(e, keyJustAhead(await keyOf(c), await keyOf(b)), db);
    const moved = await keyOf(e);
    expect(Number.isInteger(moved.pos)).toBe(false);

    expect((await waitingAhead(waitlistId, moved, 10, db)).map((key) => key.id)).toEqual([b, a]);
    expect((await lineSlice(waitlistId, moved, 10, db)).map((key) => key.id)).toEqual([c, d]);
    const page = await signupJsonLinePage({ scope: { waitlistId }, limit: 10, after: moved, fields: ["email"] }, db);
    expect(page.items.map((json) => (JSON.parse(json) as { email: string }).email)).toEqual([emails[2], emails[3]]);
    // Its place, and the places of those around it, counted from its fractional key.
    expect(await Promise.all([a, b, e, c, d].map((id) => signupPosition(waitlistId, id, db)))).toEqual([1, 2, 3, 4, 5]);
    // And moved again, just ahead of a: ahead of it nothing, after it the rest of the line.
    await moveInLine(e, keyJustAhead(await keyOf(a), undefined), db);
    const front = await keyOf(e);
    expect(await waitingAhead(waitlistId, front, 10, db)).toEqual([]);
    expect((await lineSlice(waitlistId, front, 10, db)).map((key) => key.id)).toEqual([a, b, c, d]);
    expect(await Promise.all([e, a, b, c, d].map((id) => signupPosition(waitlistId, id, db)))).toEqual([1, 2, 3, 4, 5]);
  });

  it("counts a page's places together (signupPositions) as each alone: over several days, moved, left the line, on another list or none", async () => {
    const { id: waitlistId } = await createWaitlist({ name: "Page", website: "https://page.example" }, db);
    const { id: otherId } = await createWaitlist({ name: "Other", website: "https://other.example" }, db);
    const DAY = 86_400_000;
    const insert = (list: string, email: string, at: number) => db.$engine.prepare("INSERT INTO signups (waitlist_id, email, created_at) VALUES (?, ?, ?)").run([list, email, at]);
    // Three days, the last one busy (its places counted from either end of the day).
    const times = [T - 2 * DAY, T - 2 * DAY + 5, T - DAY, ...Array.from({ length: 9 }, (_, n) => T + n * 1_000)];
    for (const [n, at] of times.entries()) await insert(waitlistId, `p${n}@page.example`, at);
    await insert(otherId, "elsewhere@page.example", T);
    const ids = (await db.$engine.prepare("SELECT id FROM signups WHERE waitlist_id = ? ORDER BY id").values([waitlistId])).map((row) => Number(row[0]));
    const [elsewhere] = (await db.$engine.prepare("SELECT id FROM signups WHERE waitlist_id = ?").values([otherId])).map((row) => Number(row[0]));
    const keyOf = async (id: number): Promise<LineKey> => (await lineSignup(id, db))!.key;
    // The last one moved to the front of the second day, another to between two of the busy day; one invited.
    await moveInLine(ids[11]!, keyJustAhead(await keyOf(ids[2]!), await keyOf(ids[1]!)), db);
    await moveInLine(ids[4]!, keyJustAhead(await keyOf(ids[8]!), await keyOf(ids[7]!)), db);
    await db.$engine.prepare("UPDATE signups SET status = 'invited' WHERE id = ?").run([ids[6]]);

    const asked = [...ids, elsewhere!, 999_999];
    const alone = await Promise.all(asked.map((id) => signupPosition(waitlistId, id, db)));
    const together = await signupPositions(waitlistId, asked, db);
    expect(asked.map((id) => together.get(id))).toEqual(alone);
    expect(alone.filter((place) => place !== null).sort((x, y) => x! - y!)).toEqual(Array.from({ length: ids.length - 1 }, (_, n) => n + 1));
    // The invited one, the one on another list and the id of nobody have no place.
    expect([alone[6], ...alone.slice(-2)]).toEqual([null, null, null]);
  });
});
