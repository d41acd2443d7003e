import { afterAll, describe, expect, it, vi } from "vitest";
import { createApiKey, listApiKeys, revokeApiKey, verifyApiKey, VIEW_ROLE } from "@/lib/domain/keys/queries";
import { checkSignInKey, createSession, deleteSession, lookupSession } from "@/lib/domain/sessions";
import { cachedCountSignups, cachedSignupsPerDay } from "@/lib/domain/signups/cached-stats";
import { countSignups, countSignupsSince, signupsPerDay } from "@/lib/domain/signups/counts";
import { listSignupRows, signupJsonBatches, signupJsonPage, signupRowBatches } from "@/lib/domain/signups/queries";
import { type SignupScope } from "@/lib/domain/signups/filter";
import { createWaitlist, getWaitlist, listWaitlists, listWaitlistSummaries, signupTotals } from "@/lib/domain/waitlists/queries";
import { insertSignups } from "@/tests/support/insert-signups";
import { tempDatabase } from "@/tests/support/temp-db";
import { MAX_CACHED_STATEMENTS } from "@/db/statement-cache";
import { preparedOnce } from "@/lib/store/statements";

const temp = tempDatabase();
afterAll(() => temp.close());

const waitlistId = createWaitlist({ name: "Prepared", website: "https://p.example" }, temp.db).id;
insertSignups(
  waitlistId,
  Array.from({ length: 30 }, (_, index) => ({ email: `user${index}@example.com`, verified: index % 2 === 0, referral: index % 3 === 0, customInputs: "[]", createdAt: Date.UTC(2026, 0, 1) + index * 3_600_000 })),
  temp.db,
);
/** A new signup between rounds, so that the second round reads other values. */
const newSignup = (round: number) => insertSignups(waitlistId, [{ email: `round${round}@example.com`, verified: true, referral: false, customInputs: '[{"label":"round","value":1}]' }], temp.db);
const apiKey = createApiKey({ name: "prepared", roles: [VIEW_ROLE] }, temp.db);

const SCOPES: SignupScope[] = [
  { waitlistId },
  { waitlistId, verified: true },
  { waitlistId, referral: false },
  { waitlistId, verified: false, referral: true },
  { waitlistId, emailContains: "user1" },
  { waitlistId, verified: true, emailContains: "1" },
];

/** One call of every query of the domain layer, with every filter shape; new values each round. */
function everyQuery(round: number) {
  const since = new Date(Date.UTC(2026, 0, 1) + round * 60_000);
  for (const scope of SCOPES) {
    const first = signupJsonPage({ scope, limit: 4 }, temp.db);
    if (first.next) signupJsonPage({ scope, limit: 4, after: first.next }, temp.db);
    Array.from(signupJsonBatches(scope, 7, temp.db));
    Array.from(signupRowBatches(scope, 7, temp.db));
    for (const sort of ["created_at", "email"] as const) {
      for (const direction of ["asc", "desc"] as const) listSignupRows({ scope, sort, direction, offset: round, limit: 5 }, temp.db);
    }
    countSignups(scope, temp.db);
    countSignupsSince(scope, since, temp.db);
    signupsPerDay(scope, since, temp.db);
    cachedCountSignups(scope, temp.db);
    cachedSignupsPerDay(scope, since, temp.db);
  }
  getWaitlist(waitlistId, temp.db);
  listWaitlists({}, temp.db);
  const page = listWaitlists({ limit: 1 }, temp.db);
  listWaitlists({ limit: 1, after: { createdAt: page.items[0]!.createdAt.getTime() - 1, id: 0 } }, temp.db);
  listWaitlistSummaries({}, temp.db);
  listWaitlistSummaries({ search: "prep", sort: "verified", direction: "desc" }, temp.db);
  signupTotals(temp.db);
  verifyApiKey(apiKey.key, VIEW_ROLE, temp.db);
  checkSignInKey(apiKey.key, temp.db);
  const session = createSession(apiKey.id, temp.db);
  lookupSession(session.token, temp.db);
  deleteSession(session.token, temp.db);
  createWaitlist({ name: `Round ${round}`, website: "https://p.example" }, temp.db);
  const extra = createApiKey({ name: `round ${round}`, roles: [VIEW_ROLE] }, temp.db);
  revokeApiKey(extra.id, temp.db);
  listApiKeys(temp.db);
}

describe("the statement cache", () => {
  it("prepares each statement once per connection: a second round with other values compiles no SQL", () => {
    everyQuery(1);
    newSignup(1);
    const prepare = vi.spyOn(temp.db.$client, "prepare");
    try {
      everyQuery(2);
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
