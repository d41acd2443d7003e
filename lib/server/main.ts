// `npm start`: the production server (./server.ts), in this process (WEB_CONCURRENCY=1) or in
// WEB_CONCURRENCY worker processes under a primary (./primary.ts). The database is migrated once,
// before anything serves. NODE_ENV is set before Next.js and React are loaded, since they pick their
// production builds when first imported.
import cluster from "node:cluster";
import { env } from "@/lib/core/env";
import { migrateDatabase } from "@/lib/domain/database";
import { serverUrl } from "./cluster-link";
import { runPrimary } from "./primary";

Object.assign(process.env, { NODE_ENV: "production" });

async function main() {
  if (!cluster.isWorker) {
    const { DATABASE_PATH, WEB_CONCURRENCY, HOST, PORT } = env();
    migrateDatabase(DATABASE_PATH);
    if (WEB_CONCURRENCY > 1) return runPrimary(WEB_CONCURRENCY, serverUrl(HOST, PORT));
  }
  const { startServer } = await import("./server");
  await startServer();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
