import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { openDatabase } from "@/db/client";
import { newChallenge, solvesChallenge } from "@/lib/domain/verification/challenge";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { tempDatabase, type TempDatabase } from "../../../../support/temp-db";

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64");

describe("the join page's proof of work", () => {
  let temp: TempDatabase;
  let waitlistId: string;
  beforeEach(async () => {
    temp = tempDatabase();
    waitlistId = (await createWaitlist({ name: "Acme", website: "https://acme.example" }, temp.db)).id;
  });
  afterEach(() => temp.close());

  const solved = async (forWaitlist = waitlistId, at = Date.now(), db = temp.db) => {
    const challenge = await newChallenge(forWaitlist, at, db);
    const solution = await solveChallenge({ challenge, deriveKey });
    expect(solution).not.toBeNull();
    return { challenge, solution: solution! };
  };

  it("accepts a solved challenge once, and refuses a wrong, expired, foreign or malformed one", async () => {
    const { challenge, solution } = await solved();
    expect(await solvesChallenge(encode({ challenge, solution: { ...solution, derivedKey: "00".repeat(32) } }), waitlistId, Date.now(), temp.db)).toBe(false);
    expect(await solvesChallenge(encode({ challenge, solution }), waitlistId, Date.now(), temp.db)).toBe(true);
    // The same payload again: already used.
    expect(await solvesChallenge(encode({ challenge, solution }), waitlistId, Date.now(), temp.db)).toBe(false);

    expect(await solvesChallenge(encode(await solved(waitlistId, Date.now() - 11 * 60 * 1000)), waitlistId, Date.now(), temp.db)).toBe(false);

    const elsewhere = tempDatabase();
    try {
      const foreignList = (await createWaitlist({ name: "Elsewhere", website: "https://elsewhere.example" }, elsewhere.db)).id;
      expect(await solvesChallenge(encode(await solved(foreignList, Date.now(), elsewhere.db)), foreignList, Date.now(), temp.db)).toBe(false);
    } finally {
      elsewhere.close();
    }
    for (const junk of [undefined, "", "not base64 json", encode({}), encode({ challenge: { parameters: {} }, solution: {} })]) expect(await solvesChallenge(junk, waitlistId, Date.now(), temp.db)).toBe(false);
  });

  it("binds a challenge to its waitlist: solved for one list, refused by another; its signed list cannot be changed", async () => {
    const other = (await createWaitlist({ name: "Other", website: "https://other.example" }, temp.db)).id;
    const payload = await solved();
    expect(payload.challenge.parameters.data).toEqual({ waitlist: waitlistId });
    expect(await solvesChallenge(encode(payload), other, Date.now(), temp.db)).toBe(false);
    const relabelled = { ...payload, challenge: { ...payload.challenge, parameters: { ...payload.challenge.parameters, data: { waitlist: other } } } };
    expect(await solvesChallenge(encode(relabelled), other, Date.now(), temp.db)).toBe(false);
    // Still unused on its own list: a refusal elsewhere spends nothing.
    expect(await solvesChallenge(encode(payload), waitlistId, Date.now(), temp.db)).toBe(true);
  });

  it("remembers a used solution in the database: refused after a restart (fresh module state) and on another connection (another worker)", async () => {
    const payload = await solved();
    expect(await solvesChallenge(encode(payload), waitlistId, Date.now(), temp.db)).toBe(true);

    // A restarted process: the module loaded afresh, the database opened again.
    vi.resetModules();
    const restarted = await import("@/lib/domain/verification/challenge");
    const reopened = openDatabase(temp.path);
    try {
      expect(await restarted.solvesChallenge(encode(payload), waitlistId, Date.now(), reopened)).toBe(false);
      // Another solution still passes there: the refusal is this solution's.
      expect(await restarted.solvesChallenge(encode(await solved(waitlistId, Date.now(), reopened)), waitlistId, Date.now(), reopened)).toBe(true);
    } finally {
      reopened.$client.close();
    }
  });

  it("keeps a used solution only until its challenge expires, then prunes it", async () => {
    const now = Date.now();
    const payload = await solved(waitlistId, now);
    expect(await solvesChallenge(encode(payload), waitlistId, now, temp.db)).toBe(true);
    const kept = () => temp.db.$client.prepare("SELECT key FROM rate_limits WHERE key LIKE 'challenge %'").pluck().all();
    expect(kept()).toEqual([`challenge ${payload.challenge.parameters.nonce}`]);
    // Eleven minutes on, the next solution's check prunes the expired one and keeps its own.
    const later = now + 11 * 60 * 1000;
    const next = await solved(waitlistId, later);
    expect(await solvesChallenge(encode(next), waitlistId, later, temp.db)).toBe(true);
    expect(kept()).toEqual([`challenge ${next.challenge.parameters.nonce}`]);
  });
});
