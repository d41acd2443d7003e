import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppDatabase } from "@/db/client";
import { joinWaitlist } from "@/lib/domain/joining/join";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { keyJustAhead, lineSignup, lineSlice, moveInLine, waitingAhead } from "@/lib/domain/ranking/line";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { pgliteDatabase } from "@/tests/support/pglite";
import { tempDatabase } from "@/tests/support/temp-db";

// A signup moved up by referrals stands at a key whose pos may lie between two ids (b's id − 0.5):
// the line read around it must compare the unmoved signups' ids with it on both engines (PostgreSQL
// refused the fraction where it binds an id: the ranked burst of the bench's joins on PostgreSQL).
const ENGINES = [
  { engine: "SQLite", open: () => Promise.resolve(tempDatabase()) },
  { engine: "PostgreSQL (PGlite)", open: async () => ({ db: await pgliteDatabase(), close: () => {} }) },
];

describe.each(ENGINES)("a line around a key between two ids: $engine", ({ open }) => {
  let db!: AppDatabase;
  let close: () => void = () => {};
  beforeAll(async () => {
    ({ db, close } = await open());
  }, 60_000);
  afterAll(() => close());

  it("reads the signups ahead of and after a moved signup standing between two unmoved ones", async () => {
    const waitlistId = (await createWaitlist({ name: "Between", website: "https://between.example" }, db)).id;
    await updateJoinSettings(waitlistId, { joining: "open" }, "cli", db);
    const ids: number[] = [];
    for (const email of ["a@example.com", "b@example.com", "c@example.com", "d@example.com"]) ids.push((await joinWaitlist({ waitlistId, email, customInputs: [] }, db)).signup.id);
    const [a, b, c, d] = ids as [number, number, number, number];
    const keyOf = async (id: number) => (await lineSignup(id, db))!.key;
    // d steps in just ahead of b.
    const moved = keyJustAhead(await keyOf(b), await keyOf(a));
    await moveInLine(d, moved, db);
    const dKey = await keyOf(d);
    expect(Number.isInteger(dKey.pos)).toBe(false);

    expect((await lineSlice(waitlistId, undefined, 10, db)).map((key) => key.id)).toEqual([a, d, b, c]);
    expect((await waitingAhead(waitlistId, dKey, 10, db)).map((key) => key.id)).toEqual([a]);
    expect((await lineSlice(waitlistId, dKey, 10, db)).map((key) => key.id)).toEqual([b, c]);
  });
});
