import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AppDatabase } from "@/db/client";
import { openPostgres } from "@/db/pg/client";
import { POOL_CONNECTIONS } from "@/db/pg/postgres-driver";
import { waitlists } from "@/db/schema";
import { storageFailureOf } from "@/lib/core/storage-failure";
import { transaction, writeTransaction } from "@/lib/store/transaction";
import { startPostgres, type PostgresServer } from "@/tests/support/pg-server";

// A failover, in small: the app's backends are killed (pg_terminate_backend) while its statements
// run, in a write transaction, in a read transaction and on the pool. postgres.js 3.4.9 then sent
// the transaction's ROLLBACK on the dead connection, and its deferred write hit a null socket: an
// uncaught TypeError that ends the process (porsager/postgres#1154, #1208; patched by
// db/pg/patches). Each lost call must fail as "unreachable", nothing may escape as an
// uncaughtException, and the same pool must answer (its own answers, none hanging) afterwards. The
// patch's first version lost each connection whose transaction's ROLLBACK followed the loss (it sat in
// postgres.js's full queue for ever): once all of them were lost, every later call hung, as after a
// failover of the app-level test (tests/failover/domain-failover.test.ts) in 4 of 16 runs.

const ROUNDS = 5;
const POOL_QUERIES = 3;
const TRANSACTIONS = 2;
const WAIT_MS = 10_000;
const KILLER_NAME = "connection-loss-killer";

/** `promise`, or a failure that names `what` when it rejects or has not settled within `ms`. */
function within<T>(promise: Promise<T>, what: string, ms = WAIT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  const named = promise.catch((error: { code?: string; message?: string }) => {
    throw new Error(`${what}: ${error.code} ${error.message}`);
  });
  return Promise.race([named, timeout]).finally(() => clearTimeout(timer));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the PostgreSQL engine when its connections are lost (postgres.js on PostgreSQL 15)", () => {
  let server: PostgresServer;
  let db: AppDatabase;
  let killer: postgres.Sql;
  const uncaught: unknown[] = [];
  const noteUncaught = (error: unknown) => uncaught.push(error);

  beforeAll(async () => {
    process.env.SECRETS_KEY ??= "c".repeat(64);
    server = await startPostgres();
    db = await openPostgres(server.url);
    killer = postgres(server.url, { max: 1, onnotice: () => {}, connection: { application_name: KILLER_NAME } });
  }, 60_000);
  afterAll(async () => {
    await db?.$engine.close();
    await killer?.end({ timeout: 1 });
    await server?.stop();
  });
  beforeEach(() => {
    process.on("uncaughtException", noteUncaught);
  });
  afterEach(() => {
    process.off("uncaughtException", noteUncaught);
  });

  /**
   * Waits until `count` of the app's backends run pg_sleep, then terminates them. (Only those: a call
   * sent to an idle connection whose backend is dying fails too, as it should, but at random.)
   */
  async function killAppBackends(count: number): Promise<number> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const [row] = await killer<{ sleeping: number }[]>`select count(*)::int as sleeping from pg_stat_activity where application_name = 'waitlist-admin' and state = 'active' and query like '%pg_sleep%'`;
      const sleeping = row?.sleeping ?? 0;
      if (sleeping >= count) break;
      if (Date.now() > deadline) throw new Error(`only ${sleeping} of ${count} statements reached the server`);
      await sleep(20);
    }
    const killed = await killer`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'waitlist-admin' and query like '%pg_sleep%'`;
    return killed.length;
  }

  it("fails each lost call as unreachable, throws nothing uncaught, and the same pool answers afterwards", async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      const lost = [
        // The nested one is a savepoint: its ROLLBACK TO, then the outer ROLLBACK, follow the loss.
        writeTransaction(db, async () => {
          await db.insert(waitlists).values({ id: `wl_lost_${round}`, name: `lost ${round}`, website: "https://lost.example", createdAt: new Date() }).run();
          await writeTransaction(db, () => db.run(sql`SELECT pg_sleep(30)`));
        }),
        transaction(db, () => db.run(sql`SELECT pg_sleep(30)`)),
        ...Array.from({ length: POOL_QUERIES }, () => db.run(sql`SELECT pg_sleep(30)`)),
      ];
      const settled = Promise.allSettled(lost);
      expect(await killAppBackends(TRANSACTIONS + POOL_QUERIES)).toBe(TRANSACTIONS + POOL_QUERIES);

      const outcomes = await within(settled, `round ${round}: the lost calls`);
      for (const outcome of outcomes) {
        expect(outcome.status).toBe("rejected");
        const reason = (outcome as PromiseRejectedResult).reason as { code?: string };
        expect(storageFailureOf(reason)?.cause, `round ${round}: ${reason.code}`).toBe("unreachable");
      }
      // The deferred write of a lost connection runs on the next turns of the event loop.
      await sleep(50);
      expect(uncaught).toEqual([]);

      // Every connection of the pool, old and new, answers its own statements, and writes go through.
      const answers = await within(Promise.all(Array.from({ length: 20 }, (_, n) => db.values<[number]>(sql`SELECT ${n}::int`))), `round ${round}: reads after the loss`);
      expect(answers).toEqual(Array.from({ length: 20 }, (_, n) => [[n]]));
      await within(
        writeTransaction(db, () => db.insert(waitlists).values({ id: `wl_kept_${round}`, name: `kept ${round}`, website: "https://kept.example", createdAt: new Date() }).run()),
        `round ${round}: a write after the loss`,
      );
    }
    const names = await within(db.select({ name: waitlists.name }).from(waitlists).orderBy(waitlists.name), "the rows");
    expect(names.map((row) => row.name)).toEqual(Array.from({ length: ROUNDS }, (_, i) => `kept ${i + 1}`));
    expect(uncaught).toEqual([]);
  }, 120_000);

  it("keeps every connection of its pool when each dies inside a transaction", async () => {
    const lost = Promise.allSettled(Array.from({ length: POOL_CONNECTIONS }, () => transaction(db, () => db.run(sql`SELECT pg_sleep(30)`))));
    expect(await killAppBackends(POOL_CONNECTIONS)).toBe(POOL_CONNECTIONS);
    const outcomes = await within(lost, "the lost transactions");
    expect(outcomes.map((outcome) => outcome.status)).toEqual(Array.from({ length: POOL_CONNECTIONS }, () => "rejected"));
    // No call is waiting now: a connection the loss left unusable would never be opened again.
    await sleep(200);
    const answers = await within(Promise.all(Array.from({ length: POOL_CONNECTIONS }, (_, n) => db.values<[number]>(sql`SELECT ${n}::int`))), "reads after every connection was lost");
    expect(answers).toEqual(Array.from({ length: POOL_CONNECTIONS }, (_, n) => [[n]]));
    expect(uncaught).toEqual([]);
  }, 60_000);
});
