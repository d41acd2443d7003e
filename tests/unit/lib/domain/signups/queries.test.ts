import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Position } from "@/lib/store/keyset";
import { countSignups, countSignupsSince, signupsPerDay } from "@/lib/domain/signups/counts";
import { listSignupRows, signupJsonBatches, signupJsonPage, signupRowBatches } from "@/lib/domain/signups/queries";
import type { SignupRow } from "@/lib/domain/signups/row";
import { type SignupScope } from "@/lib/domain/signups/filter";
import { parseSignupPublicId, signupPublicId } from "@/lib/domain/signups/id";
import { SIGNUP_FIELDS, signupResponseSchema, signupWithFieldsSchema, toSignupResponse, type SignupField } from "@/lib/domain/signups/response";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { allOf } from "@/tests/support/batches";
import { insertSignups } from "@/tests/support/insert-signups";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

const DAY = 86_400_000;
const BASE = Date.UTC(2026, 0, 1);

let temp: TempDatabase;
let waitlistId: string;
let all: SignupRow[];

beforeAll(async () => {
  temp = tempDatabase();
  waitlistId = (await createWaitlist({ name: "Main", website: "https://e.com" }, temp.db)).id;
  const other = (await createWaitlist({ name: "Other", website: "https://e.com" }, temp.db)).id;
  // Groups of three share a created_at, so ties must be broken by id.
  const special = (index: number) => (index === 10 ? "100%_off" : index === 11 ? "100x_off" : index === 12 ? "a_b" : `user${index}`);
  insertSignups(
    waitlistId,
    Array.from({ length: 157 }, (_, index) => ({
      email: `${special(index)}@example.com`,
      verified: index % 3 !== 0,
      referral: index % 4 === 0,
      customInputs: index % 5 === 0 ? "[]" : JSON.stringify([{ label: "n", value: index }, { nested: { ok: true } }]),
      createdAt: BASE + Math.floor(index / 3) * DAY,
    })),
    temp.db,
  );
  insertSignups(other, [{ email: "user1@example.com", verified: true, referral: true, customInputs: "[]" }], temp.db, BASE);
  all = await allOf(signupRowBatches({ waitlistId }, 1000, temp.db));
});
afterAll(() => temp.close());

function expected(scope: SignupScope): SignupRow[] {
  return all.filter(
    (row) =>
      (scope.verified === undefined || row.verified === scope.verified) &&
      (scope.referral === undefined || row.referral === scope.referral) &&
      (!scope.emailContains || row.email.toLowerCase().includes(scope.emailContains.toLowerCase())),
  );
}

const SCOPES: Omit<SignupScope, "waitlistId">[] = [{}, { verified: true }, { verified: false }, { referral: true }, { verified: true, referral: false }, { emailContains: "USER1" }];

describe("signup writes", () => {
  it("keeps every row and orders them by created_at, then id", () => {
    expect(all).toHaveLength(157);
    const sorted = [...all].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id);
    expect(all).toEqual(sorted);
  });

  it("skips an email the waitlist already has, compared case-insensitively", () => {
    temp.db.$client.exec("SAVEPOINT probe");
    expect(insertSignups(waitlistId, [{ email: "USER20@Example.com", verified: false, referral: false, customInputs: "[]" }], temp.db)).toBe(0);
    temp.db.$client.exec("ROLLBACK TO probe; RELEASE probe");
  });
});

describe("keyset pages", () => {
  it.each(SCOPES)("walk every row exactly once, in order, for %j", async (filters) => {
    const scope = { waitlistId, ...filters };
    const want = expected(scope).map((row) => JSON.stringify(toSignupResponse(row)));
    const seen: string[] = [];
    let after: Position | undefined;
    let pages = 0;
    do {
      const page = await signupJsonPage({ scope, limit: 10, after }, temp.db);
      seen.push(...page.items);
      after = page.next ?? undefined;
      pages++;
    } while (after);
    expect(seen.map((text) => JSON.stringify(JSON.parse(text)))).toEqual(want);
    expect(pages).toBe(Math.max(1, Math.ceil(want.length / 10)));
    expect(await allOf(signupJsonBatches(scope, 7, temp.db))).toEqual(seen);
  });

  it("builds JSON equal to toSignupResponse of the same rows", async () => {
    const page = await signupJsonPage({ scope: { waitlistId }, limit: 1000 }, temp.db);
    expect(page.next).toBeNull();
    expect(page.items.map((text) => JSON.parse(text))).toEqual(all.map(toSignupResponse));
    // …and each object is exactly the response schema, in its field order.
    for (const text of page.items) expect(Object.keys(signupResponseSchema.strict().parse(JSON.parse(text)))).toEqual(Object.keys(signupResponseSchema.shape));
  });

  it.each<{ fields: SignupField[] }>([{ fields: [...SIGNUP_FIELDS] }, { fields: ["id"] }, { fields: ["status", "status_changed_at"] }, { fields: ["email", "created_at"] }, { fields: ["verified", "custom_inputs", "id"] }])(
    "builds exactly the fields $fields, in that order",
    async ({ fields }) => {
    const timed = (await createWaitlist({ name: "Timed", website: "https://e.com" }, temp.db)).id;
    // Milliseconds, a leap day, instants before 1970 (negative epoch milliseconds) and after 2038: as toISOString writes them.
    const instants = [
      Date.UTC(2026, 9, 1, 9, 30, 0, 7),
      Date.UTC(2024, 1, 29, 23, 59, 59, 999),
      Date.UTC(1969, 11, 31, 23, 59, 58, 500),
      Date.UTC(1901, 5, 1, 12, 0, 0, 1),
      Date.UTC(2040, 0, 1, 0, 0, 0, 120),
    ];
    insertSignups(
      timed,
      instants.map((createdAt, index) => ({ email: `t${index}@example.com`, verified: index % 2 === 0, referral: index === 1, customInputs: JSON.stringify([{ label: "i", value: index }]),
        createdAt,
        // Some in another status, changed at an instant of the same list (status_changed_at is written like created_at).
        ...(index % 2 === 1 ? { status: "invited" as const, statusChangedAt: instants[(index + 1) % instants.length] } : {}),
      })),
      temp.db,
    );
    const rows = await allOf(signupRowBatches({ waitlistId: timed }, 100, temp.db));
    const reference = (row: SignupRow): Record<SignupField, unknown> => ({
      ...toSignupResponse(row),
      created_at: row.createdAt.toISOString(),
      id: signupPublicId(row.id),
      status: row.status,
      status_changed_at: row.statusChangedAt?.toISOString() ?? null,
      // Inserted without a source: the join's own tests give one (tests/unit/lib/domain/funnel).
      utm_source: null,
      utm_medium: null,
      utm_campaign: null,
      referrer: null,
    });

    const page = (await signupJsonPage({ scope: { waitlistId: timed }, limit: 100, fields }, temp.db)).items.map((text) => JSON.parse(text) as Record<string, unknown>);
    expect(page).toEqual(rows.map((row) => Object.fromEntries(fields.map((field) => [field, reference(row)[field]]))));
    for (const item of page) {
      expect(Object.keys(item)).toEqual(fields);
      expect(signupWithFieldsSchema.safeParse(item).success).toBe(true);
    }
    expect((await allOf(signupJsonBatches({ waitlistId: timed }, 3, temp.db, fields))).map((text) => JSON.parse(text))).toEqual(page);
    // The id leads back to its signup.
    if (fields.includes("id")) for (const [index, item] of page.entries()) expect(parseSignupPublicId(item.id as string)).toBe(rows[index]!.id);
    },
  );

  it("returns an empty last page for an unknown waitlist", async () => {
    expect(await signupJsonPage({ scope: { waitlistId: "nope" }, limit: 10 }, temp.db)).toEqual({ items: [], next: null });
  });
});

describe("offset pages", () => {
  it.each([
    ["created_at", "asc"],
    ["created_at", "desc"],
    ["email", "asc"],
    ["email", "desc"],
  ] as const)("sort by %s %s, ties by id", async (sort, direction) => {
    const sign = direction === "asc" ? 1 : -1;
    const key = (row: SignupRow) => (sort === "email" ? row.email.toLowerCase() : row.createdAt.getTime());
    const want = [...expected({ waitlistId, verified: true })].sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      return (x < y ? -1 : x > y ? 1 : a.id - b.id) * sign;
    });
    const pages = await Promise.all([0, 25, 50, 75, 100].map((offset) => listSignupRows({ scope: { waitlistId, verified: true }, sort, direction, offset, limit: 25 }, temp.db)));
    // Each waiting row with its place in the whole line (the order of joining, without a ranking rule).
    const line = all.filter((row) => row.status === "waiting").sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id);
    const place = new Map(line.map((row, index) => [row.id, index + 1]));
    expect(pages.flat()).toEqual(want.map((row) => ({ ...row, position: place.get(row.id) ?? null })));
  });

  it("sort by position: the line of the scope, waiting signups only, each with its place", async () => {
    const line = all.filter((row) => row.status === "waiting").sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id);
    const place = new Map(line.map((row, index) => [row.id, index + 1]));
    const want = line.filter((row) => row.verified).map((row) => ({ ...row, position: place.get(row.id)! }));
    const pages = await Promise.all([0, 25, 50, 75, 100].map((offset) => listSignupRows({ scope: { waitlistId, verified: true }, sort: "position", direction: "asc", offset, limit: 25 }, temp.db)));
    expect(pages.flat()).toEqual(want);
    expect((await listSignupRows({ scope: { waitlistId, verified: true }, sort: "position", direction: "desc", offset: 0, limit: 3 }, temp.db)).map((row) => row.position)).toEqual(want.slice(-3).reverse().map((row) => row.position));
  });
});

describe("search", () => {
  it("treats % and _ literally", async () => {
    expect((await listSignupRows({ scope: { waitlistId, emailContains: "100%_" }, offset: 0, limit: 10 }, temp.db)).map((row) => row.email)).toEqual(["100%_off@example.com"]);
    expect((await listSignupRows({ scope: { waitlistId, emailContains: "a_b" }, offset: 0, limit: 10 }, temp.db)).map((row) => row.email)).toEqual(["a_b@example.com"]);
    expect((await countSignups({ waitlistId, emailContains: "%" }, temp.db)).total).toBe(1);
    expect((await countSignups({ waitlistId, emailContains: "_" }, temp.db)).total).toBe(3);
  });
});

describe("counts", () => {
  it.each(SCOPES)("total, verified, referral and facets match the rows for %j", async (filters) => {
    const scope = { waitlistId, ...filters };
    const rows = expected(scope);
    const underOtherFilters = (field: "verified" | "referral", value: boolean) =>
      expected({ ...scope, [field]: undefined }).filter((row) => row[field] === value).length;
    expect(await countSignups(scope, temp.db)).toEqual({
      total: rows.length,
      verified: rows.filter((row) => row.verified).length,
      referral: rows.filter((row) => row.referral).length,
      verifiedFacet: { yes: underOtherFilters("verified", true), no: underOtherFilters("verified", false) },
      referralFacet: { yes: underOtherFilters("referral", true), no: underOtherFilters("referral", false) },
      // Every signup here is waiting; transitions.test.ts counts lists in every status.
      statusFacet: { waiting: rows.length, invited: 0, completed: 0, rejected: 0 },
      exact: true,
    });
  });

  it("counts signups since a date and per UTC day", async () => {
    const since = new Date(BASE + 50 * DAY);
    expect(await countSignupsSince({ waitlistId }, since, temp.db)).toBe(all.filter((row) => row.createdAt >= since).length);
    const days = (await signupsPerDay({ waitlistId }, since, temp.db))!;
    expect(days[0]).toEqual({ day: "2026-02-20", count: 3 });
    expect(days.reduce((sum, day) => sum + day.count, 0)).toBe(await countSignupsSince({ waitlistId }, since, temp.db));
  });
});
