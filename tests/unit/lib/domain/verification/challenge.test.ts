import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { newChallenge, solvesChallenge } from "@/lib/domain/verification/challenge";
import { tempDatabase, type TempDatabase } from "../../../../support/temp-db";

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64");

describe("the join page's proof of work", () => {
  let temp: TempDatabase;
  beforeEach(() => (temp = tempDatabase()));
  afterEach(() => temp.close());

  it("accepts a solved challenge once, and refuses a wrong, expired, foreign or malformed one", async () => {
    const challenge = await newChallenge(Date.now(), temp.db);
    const solution = await solveChallenge({ challenge, deriveKey });
    expect(solution).not.toBeNull();
    expect(await solvesChallenge(encode({ challenge, solution: { ...solution!, derivedKey: "00".repeat(32) } }), temp.db)).toBe(false);
    expect(await solvesChallenge(encode({ challenge, solution }), temp.db)).toBe(true);
    // The same payload again: already used.
    expect(await solvesChallenge(encode({ challenge, solution }), temp.db)).toBe(false);

    const old = await newChallenge(Date.now() - 11 * 60 * 1000, temp.db);
    expect(await solvesChallenge(encode({ challenge: old, solution: await solveChallenge({ challenge: old, deriveKey }) }), temp.db)).toBe(false);

    const elsewhere = tempDatabase();
    try {
      const foreign = await newChallenge(Date.now(), elsewhere.db);
      expect(await solvesChallenge(encode({ challenge: foreign, solution: await solveChallenge({ challenge: foreign, deriveKey }) }), temp.db)).toBe(false);
    } finally {
      elsewhere.close();
    }
    for (const junk of [undefined, "", "not base64 json", encode({}), encode({ challenge: { parameters: {} }, solution: {} })]) expect(await solvesChallenge(junk, temp.db)).toBe(false);
  });
});
