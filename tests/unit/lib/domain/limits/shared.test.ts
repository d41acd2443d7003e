import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { openDatabase, type AppDatabase } from "@/db/client";
import { openPostgres } from "@/db/pg/client";
import { rateLimits, waitlists } from "@/db/schema";
import { answerOnce } from "@/lib/domain/idempotency";
import { holdLease } from "@/lib/domain/limits/leases";
import { databaseLimitStore, sharedLimitStore } from "@/lib/domain/limits/shared";
import { StoredLimits, type SlotSpec, type WindowSpec } from "@/lib/http/limits";
import { startPostgres } from "@/tests/support/pg-server";
import { pgliteDatabase } from "@/tests/support/pglite";
import { tempDatabase } from "@/tests/support/temp-db";

// Two app servers on one database: two AppDatabase instances (two connection pools on a real
// PostgreSQL 15; two connections on one SQLite file), each with the limits of its own. Whatever
// server a request reaches, a limit allows its number across both, not that number per server.

interface Servers {
  a: AppDatabase;
  b: AppDatabase;
  close(): Promise<void>;
}

// Two SQLite connections in one process cannot both be in a write transaction at once: the second's
// busy wait blocks the thread that would end the first's. Their writes take turns here instead.
const ENGINES: { engine: string; concurrentWrites: boolean; open: () => Promise<Servers> }[] = [
  {
    engine: "PostgreSQL 15, two pools",
    concurrentWrites: true,
    open: async () => {
      process.env.SECRETS_KEY ??= "a".repeat(64);
      const server = await startPostgres();
      const a = await openPostgres(server.url);
      const b = await openPostgres(server.url);
      return {
        a,
        b,
        close: async () => {
          await a.$engine.close();
          await b.$engine.close();
          await server.stop();
        },
      };
    },
  },
  {
    engine: "SQLite, two connections on one file",
    concurrentWrites: false,
    open: () => {
      const temp = tempDatabase();
      const b = openDatabase(temp.path);
      return Promise.resolve({
        a: temp.db,
        b,
        close: async () => {
          await b.$engine.close();
          temp.close();
        },
      });
    },
  },
];

const PER_KEY: WindowSpec = { name: "per-key", limit: 5, windowMs: 60_000, maxKeys: 100 };
const FAILURES: WindowSpec = { name: "auth-failures", limit: 3, windowMs: 60_000, maxKeys: 100 };
const EXPORTS: SlotSpec = { name: "csv-exports", slotsPerKey: 2 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(ENGINES)("limits shared through the database: $engine", ({ open, concurrentWrites }) => {
  let servers!: Servers;
  let a!: StoredLimits;
  let b!: StoredLimits;
  beforeAll(async () => {
    servers = await open();
    a = new StoredLimits(databaseLimitStore(servers.a));
    b = new StoredLimits(databaseLimitStore(servers.b));
  }, 60_000);
  afterAll(async () => await servers?.close());

  it("allows a key its limit across both servers, hits arriving at once on either", async () => {
    const hits = await Promise.all(Array.from({ length: 16 }, (_, index) => (index % 2 ? a : b).hit(PER_KEY, "key_1")));
    expect(hits.filter((state) => state.allowed)).toHaveLength(PER_KEY.limit);
    expect(hits.map((state) => state.remaining).sort((x, y) => x - y)).toEqual([...Array(12).fill(0), 1, 2, 3, 4]);
    // Another key has a window of its own.
    expect(await b.hit(PER_KEY, "key_2")).toMatchObject({ allowed: true, remaining: 4, limit: 5, windowSeconds: 60 });
  });

  it("counts a counter's hits sent together (./coalesced-hits.ts) as if each went alone, in the order they arrived", async () => {
    const many = { ...PER_KEY, limit: 1_000 };
    const perServer = 40;
    const [onA, onB] = await Promise.all([a, b].map((server) => Promise.all(Array.from({ length: perServer }, () => server.hit(many, "key_many")))));
    const counts = (states: { remaining: number }[]) => states.map((state) => many.limit - state.remaining);
    // Each server's callers in the order they called; together, every count from 1 to 80 once.
    for (const states of [onA!, onB!]) expect(counts(states)).toEqual([...counts(states)].sort((x, y) => x - y));
    expect([...counts(onA!), ...counts(onB!)].sort((x, y) => x - y)).toEqual(Array.from({ length: 2 * perServer }, (_, index) => index + 1));
    // Guarded hits sent together are all guarded, and none is counted.
    for (let failure = 0; failure < FAILURES.limit; failure++) await a.hit(FAILURES, "203.0.113.9");
    const guarded = await Promise.all(Array.from({ length: 5 }, () => b.hitUnlessExhausted(many, "key_many", FAILURES, "203.0.113.9")));
    expect(guarded.map((hit) => hit.guarded)).toEqual([true, true, true, true, true]);
    expect(await a.peek(many, "key_many")).toMatchObject({ remaining: many.limit - 2 * perServer });
  });

  it("guards every server once an address has used up its failures on one", async () => {
    for (let failure = 0; failure < FAILURES.limit; failure++) expect((await a.hit(FAILURES, "203.0.113.7")).allowed).toBe(true);
    expect(await b.peek(FAILURES, "203.0.113.7")).toMatchObject({ remaining: 0, allowed: true });
    const guarded = await b.hitUnlessExhausted(PER_KEY, "key_3", FAILURES, "203.0.113.7");
    expect(guarded).toMatchObject({ guarded: true, state: { allowed: false, limit: FAILURES.limit } });
    // The key was not charged; another address is not guarded.
    expect(await a.hitUnlessExhausted(PER_KEY, "key_3", FAILURES, "198.51.100.1")).toMatchObject({ guarded: false, state: { allowed: true, remaining: 4 } });
  });

  it("keeps a key's hash, never the address, session or key id itself", async () => {
    const keys = await servers.a.select({ key: rateLimits.key }).from(rateLimits);
    expect(keys.length).toBeGreaterThan(0);
    for (const { key } of keys) expect(key).toMatch(/^limit [0-9a-f]{32}$/);
  });

  it("gives a session its export slots across both servers, and a released one to the other", async () => {
    const first = await a.take(EXPORTS, "session_1");
    const second = await b.take(EXPORTS, "session_1");
    expect(first).not.toBeNull();
    expect(second).not.toBeNull();
    expect(await a.take(EXPORTS, "session_1")).toBeNull();
    expect(await b.take(EXPORTS, "session_1")).toBeNull();
    expect(await b.take(EXPORTS, "session_2")).not.toBeNull();
    first!();
    first!();
    await sleep(50);
    const third = await b.take(EXPORTS, "session_1");
    expect(third).not.toBeNull();
    second!();
    third!();
  });

  it("renews a held lease, and frees one whose holder died once it lapses", async () => {
    const release = await holdLease("lease renewed", 300, servers.a);
    await sleep(700);
    expect(await holdLease("lease renewed", 300, servers.b)).toBeNull();
    await release!();
    const taken = await holdLease("lease renewed", 300, servers.b);
    expect(taken).not.toBeNull();
    await taken!();

    // A third server takes the lease and dies: its renewals stop.
    const third = servers.a.$engine.kind === "postgres" ? await openPostgres(servers.a.$engine.location) : openDatabase(servers.a.$engine.location);
    expect(await holdLease("lease of the dead", 300, third)).not.toBeNull();
    await third.$engine.close();
    expect(await holdLease("lease of the dead", 300, servers.b)).toBeNull();
    await sleep(400);
    expect(await holdLease("lease of the dead", 300, servers.b)).not.toBeNull();
  });

  it("answers an Idempotency-Key once when the same write reaches both servers", async () => {
    const scope = { apiKeyId: "key_idem", key: "retry-1", requestHash: "hash-1" };
    const create = (db: AppDatabase) =>
      answerOnce(
        scope,
        async () => {
          const id = crypto.randomUUID();
          await db.insert(waitlists).values({ id, name: "idempotent", website: "https://t.example", createdAt: new Date() }).run();
          return id;
        },
        (id) => ({ code: 201, body: JSON.stringify({ id }) }),
        db,
      );
    const outcomes = concurrentWrites ? await Promise.all([create(servers.a), create(servers.b)]) : [await create(servers.a), await create(servers.b)];
    expect(outcomes.map((outcome) => outcome.replayed).sort()).toEqual([false, true]);
    expect(outcomes[0]!.answer).toEqual(outcomes[1]!.answer);
    expect(await servers.b.select({ id: waitlists.id }).from(waitlists).where(eq(waitlists.name, "idempotent"))).toHaveLength(1);
  });
});

describe("where the app's limits are counted", () => {
  it("on SQLite in each process's memory, on PostgreSQL in the database", async () => {
    const sqlite = tempDatabase();
    const pg = await pgliteDatabase();
    try {
      expect(sharedLimitStore(sqlite.db)).toBeUndefined();
      expect(sharedLimitStore(pg)).toBe(sharedLimitStore(pg));
      expect(sharedLimitStore(pg)).toBeDefined();
    } finally {
      sqlite.close();
      await pg.$engine.close();
    }
  });

  it("in an UNLOGGED table on PostgreSQL (its writes make no WAL), with its indexes", async () => {
    const pg = await pgliteDatabase();
    try {
      expect(await pg.all(sql`SELECT relpersistence FROM pg_class WHERE relname IN ('rate_limits', 'rate_limits_pkey', 'rate_limits_window_end_idx') ORDER BY relname`)).toEqual([["u"], ["u"], ["u"]]);
    } finally {
      await pg.$engine.close();
    }
  });
});
