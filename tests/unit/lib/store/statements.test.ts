import { afterAll, describe, expect, it, vi } from "vitest";
import { createApiKey, listApiKeys, revokeApiKey, verifyApiKey, VIEW_ROLE } from "@/lib/domain/keys/queries";
import { checkSignInKey, createSession, deleteSession, lookupSession } from "@/lib/domain/sessions";
import { cachedCountSignups, cachedSignupsPerDay } from "@/lib/domain/signups/cached-stats";
import { countSignups, countSignupsSince, signupsPerDay } from "@/lib/domain/signups/counts";
import { listSignupRows, signupJsonBatches, signupJsonPage, signupRowBatches } from "@/lib/domain/signups/queries";
import { type SignupScope } from "@/lib/domain/signups/filter";
import { createWaitlist, getWaitlist, listWaitlists, listWaitlistSummaries, signupTotals } from "@/lib/domain/waitlists/queries";
import { allOf } from "@/tests/support/batches";
import { insertSignups } from "@/tests/support/insert-signups";
import { tempDatabase } from "@/tests/support/temp-db";
import { MAX_CACHED_STATEMENTS } from "@/db/statement-cache";
import { preparedOnce } from "@/lib/store/statements";

const temp = tempDatabase();
afterAll(() => temp.close());

const waitlistId = (await createWaitlist({ name: "Prepared", website: "https://p.example" }, temp.db)).id;
insertSignups(
  waitlistId,
  Array.from({ length: 30 }, (_, index) => ({ email: `user${index}@example.com`, verified: index % 2 === 0, referral: index % 3 === 0, customInputs: "[]", createdAt: Date.UTC(2026, 0, 1) + index * 3_600_000 })),
  temp.db,
);
/** A new signup between rounds, so that the second round reads other values. */
const newSignup = (round: number) => insertSignups(waitlistId, [{ email: `round${round}@example.com`, verified: true, referral: false, customInputs: '[{"label":"round","value":1}]' }], temp.db);
const apiKey = await createApiKey({ name: "prepared", roles: [VIEW_ROLE] }, temp.db);

const SCOPES: SignupScope[] = [
  { waitlistId },
  { waitlistId, verified: true },
  { waitlistId, referral: false },
  { waitlistId, verified: false, referral: true },
  { waitlistId, emailContains: "user1" },
  { waitlistId, verified: true, emailContains: "1" },
];

/** One call of every query of the domain layer, with every filter shape; new values each round. */
async function everyQuery(round: number) {
  const since = new Date(Date.UTC(2026, 0, 1) + round * 60_000);
  for (const scope of SCOPES) {
    const first = await signupJsonPage({ scope, limit: 4 }, temp.db);
    if (first.next) await signupJsonPage({ scope, limit: 4, after: first.next }, temp.db);
    await allOf(signupJsonBatches(scope, 7, temp.db));
    await allOf(signupRowBatches(scope, 7, temp.db));
    for (const sort of ["created_at", "email"] as const) {
      for (const direction of ["asc", "desc"] as const) await listSignupRows({ scope, sort, direction, offset: round, limit: 5 }, temp.db);
    }
    await countSignups(scope, temp.db);
    await countSignupsSince(scope, since, temp.db);
    await signupsPerDay(scope, since, temp.db);
    await cachedCountSignups(scope, temp.db);
    await cachedSignupsPerDay(scope, since, temp.db);
  }
  await getWaitlist(waitlistId, temp.db);
  await listWaitlists({}, temp.db);
  const page = await listWaitlists({ limit: 1 }, temp.db);
  await listWaitlists({ limit: 1, after: { createdAt: page.items[0]!.createdAt.getTime() - 1, id: 0 } }, temp.db);
  await listWaitlistSummaries({}, temp.db);
  await listWaitlistSummaries({ search: "prep", sort: "verified", direction: "desc" }, temp.db);
  await signupTotals(temp.db);
  await verifyApiKey(apiKey.key, VIEW_ROLE, temp.db);
  await checkSignInKey(apiKey.key, temp.db);
  const session = await createSession(apiKey.id, temp.db);
  await lookupSession(session.token, temp.db);
  await deleteSession(session.token, temp.db);
  await createWaitlist({ name: `Round ${round}`, website: "https://p.example" }, temp.db);
  const extra = await createApiKey({ name: `round ${round}`, roles: [VIEW_ROLE] }, temp.db);
  await revokeApiKey(extra.id, temp.db);
  await listApiKeys(temp.db);
}

describe("the statement cache", () => {
  it("prepares each statement once per connection: a second round with other values compiles no SQL", async () => {
    await everyQuery(1);
    newSignup(1);
    const prepare = vi.spyOn(temp.db.$client, "prepare");
    try {
      await everyQuery(2);
      expect(prepare.mock.calls.map(([sql]) => sql)).toEqual([]);
      // The bulk writer's statements too; only its PRAGMAs (the page cache it sets and restores) compile each time.
      newSignup(2);
      expect(prepare.mock.calls.map(([sql]) => sql).filter((sql) => !sql.startsWith("PRAGMA "))).toEqual([]);
    } finally {
      prepare.mockRestore();
    }
  });
});

describe("the statement cache's bound", () => {
  it("keeps at most MAX_CACHED_STATEMENTS per connection, dropping the least recently used", () => {
    const other = tempDatabase();
    try {
      const make = (key: string) => preparedOnce(other.db, key, () => other.db.$client.prepare(`SELECT '${key}' AS k`));
      const first = make("key-0");
      for (let index = 1; index < MAX_CACHED_STATEMENTS; index++) make(`key-${index}`);
      expect(make("key-0")).toBe(first);
      make("one-more");
      // key-0 was used last but one; key-1 is now the least recently used, and went.
      expect(make("key-0")).toBe(first);
      const prepare = vi.spyOn(other.db.$client, "prepare");
      make("key-1");
      expect(prepare).toHaveBeenCalledTimes(1);
    } finally {
      other.close();
    }
  });
});
