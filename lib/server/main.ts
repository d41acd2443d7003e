// `npm start`: the production server (./server.ts), in this process (WEB_CONCURRENCY=1) or in
// WEB_CONCURRENCY worker processes under a primary (./primary.ts). The database is migrated once,
// before anything serves. NODE_ENV is set before Next.js and React are loaded, since they pick their
// production builds when first imported. With continuous backup, beside Litestream (./continuous-backup.ts).
import cluster from "node:cluster";
import { DatabaseFailure } from "@/lib/core/database-failure";
import { env } from "@/lib/core/env";
import { startupLines, startupSummary } from "@/lib/core/startup-summary";
import { databaseLocation, migrateDatabase } from "@/lib/domain/database";
import { continuousBackupOf, startedBesideLitestream } from "@/lib/sqlite/litestream";
import { noteWritesRefused } from "@/lib/sqlite/write-outage";
import { serverUrl } from "./cluster-link";
import { serveWithLitestream } from "./continuous-backup";
import { runPrimary } from "./primary";

Object.assign(process.env, { NODE_ENV: "production" });

async function main() {
  if (!cluster.isWorker) {
    const { DATABASE_PATH, WEB_CONCURRENCY, HOST, PORT } = env();
    const backup = continuousBackupOf(env());
    if (backup && !startedBesideLitestream()) {
      // Litestream starts on the migrated file, beside this command started again as the server.
      await migrateDatabase(env());
      return serveWithLitestream(backup, DATABASE_PATH);
    }
    const refusal = await migrateDatabase(env());
    // Email, the public URL and the database, a line each, once the database opened (a file it cannot
    // use stops the server with its one line alone); one process says it for all its workers.
    for (const msg of startupLines(startupSummary(env()))) console.log(JSON.stringify({ time: new Date().toISOString(), level: "info", msg }));
    if (refusal) noteWritesRefused(databaseLocation(env()), refusal, { waited: true });
    if (WEB_CONCURRENCY > 1) return runPrimary(WEB_CONCURRENCY, serverUrl(HOST, PORT));
  }
  const { startServer } = await import("./server");
  await startServer();
}

main().catch((error: unknown) => {
  // A database it cannot use: the one line that says which file, what is wrong and what to do.
  console.error(error instanceof DatabaseFailure ? `error: ${error.message}` : error);
  process.exit(1);
});
