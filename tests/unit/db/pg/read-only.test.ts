import { afterAll, beforeAll, expect, it } from "vitest";
import postgres from "postgres";
import { openPostgres } from "@/db/pg/client";
import { storageFailureOf } from "@/lib/core/storage-failure";
import { migrateDatabase } from "@/lib/domain/database";
import { createWaitlist, listWaitlists } from "@/lib/domain/waitlists/queries";
import { startPostgres, type PostgresServer } from "@/tests/support/pg-server";

// A PostgreSQL database that takes no writes (a standby, or default_transaction_read_only): up to
// date, it is opened and served for reading, and every write is refused as read-only; with pending
// migrations it is refused at once, saying where to migrate.

let server: PostgresServer;
const savedKey = process.env.SECRETS_KEY;

beforeAll(async () => {
  process.env.SECRETS_KEY = "a".repeat(64);
  server = await startPostgres();
});
afterAll(async () => {
  await server.stop();
  if (savedKey === undefined) delete process.env.SECRETS_KEY;
  else process.env.SECRETS_KEY = savedKey;
});

async function setReadOnly(database: string, on: boolean) {
  const admin = postgres(server.url.replace(/\/[^/]+$/, "/postgres"), { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`ALTER DATABASE ${database} SET default_transaction_read_only = ${on ? "on" : "off"}`);
  } finally {
    await admin.end();
  }
}

it("an up-to-date read-only database is served for reading, its writes refused as read-only; the start says so", async () => {
  const writable = await openPostgres(server.url);
  await createWaitlist({ name: "Before", website: "https://before.example.com" }, writable);
  await writable.$engine.close();

  await setReadOnly("waitlist", true);
  try {
    expect(await migrateDatabase({ DATABASE_PATH: "unused.db", DATABASE_URL: server.url })).toEqual({ cause: "read-only", message: expect.stringMatching(/^the database cannot be written/) });
    const db = await openPostgres(server.url);
    try {
      expect((await listWaitlists({}, db)).items.map((each) => each.name)).toEqual(["Before"]);
      const refused = await createWaitlist({ name: "After", website: "https://after.example.com" }, db).catch((error: unknown) => error);
      expect(storageFailureOf(refused)?.cause).toBe("read-only");
    } finally {
      await db.$engine.close();
    }
  } finally {
    await setReadOnly("waitlist", false);
  }
});

it("a read-only database whose migrations are not applied is refused, naming them and what to run", async () => {
  const admin = postgres(server.url.replace(/\/[^/]+$/, "/postgres"), { max: 1, onnotice: () => {} });
  await admin.unsafe("CREATE DATABASE empty_standby");
  await admin.end();
  await setReadOnly("empty_standby", true);
  await expect(openPostgres(server.url.replace(/\/[^/]+$/, "/empty_standby"))).rejects.toThrow(/takes no writes \(a standby\?\) and its migrations are not all applied \(0000_baseline, .*\): run `npm run cli -- db migrate` against the primary/);
});
