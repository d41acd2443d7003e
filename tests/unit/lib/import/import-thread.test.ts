import { mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, type AppDatabase } from "@/db/client";
import { openPostgres } from "@/db/pg/client";
import { startThread } from "@/lib/core/thread";
import type { ImportEvent } from "@/lib/import/events";
import { THREADS } from "@/lib/server/threads";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { startPostgres, type PostgresServer } from "@/tests/support/pg-server";

// An upload's import runs on a thread of its own, and the server answers the upload when that thread
// exits. On PostgreSQL the thread's connection pool kept its sockets open, so the thread never exited
// and every dashboard upload hung at "deriving", holding the import lock.

const folder = mkdtempSync(join(tmpdir(), "import-thread-"));
let server: PostgresServer | undefined;
afterAll(async () => {
  await server?.stop();
  rmSync(folder, { recursive: true, force: true });
});

const ENGINES = [
  { engine: "SQLite", open: () => Promise.resolve({ db: openDatabase(join(folder, "app.db")), env: { DATABASE_PATH: join(folder, "app.db") } }) },
  {
    engine: "PostgreSQL 15",
    open: async () => {
      server = await startPostgres();
      return { db: await openPostgres(server.url), env: { DATABASE_URL: server.url } };
    },
  },
];

describe.each(ENGINES)("an import on its thread: $engine", ({ open }) => {
  it("posts its result, and the thread exits", { timeout: 60_000 }, async () => {
    process.env.SECRETS_KEY ??= "c".repeat(64);
    const { db, env } = await open();
    const waitlistId = (await createWaitlist({ name: "Upload", website: "https://upload.example" }, db)).id;
    const file = join(folder, `upload-${Date.now()}.csv`);
    writeFileSync(file, "email\nada@upload.example\nbob@upload.example\n");
    const events: ImportEvent[] = [];
    const thread = startThread(THREADS.import.file, { workerData: { waitlistId, fd: openSync(file, "r"), format: "csv", actor: "cli" }, env: { ...process.env, ...env } });
    thread.on("message", (event: ImportEvent) => events.push(event));
    const exitCode = await new Promise<number>((resolve, reject) => {
      const tooLong = setTimeout(() => reject(new Error(`the import thread did not exit; it posted ${JSON.stringify(events)}`)), 20_000);
      thread.once("exit", (code) => {
        clearTimeout(tooLong);
        resolve(code);
      });
    });
    expect(exitCode).toBe(0);
    expect(events.at(-1)).toEqual({ type: "done", imported: 2, skipped_duplicates: 0 });
    await (db as AppDatabase).$engine.close();
  });
});
