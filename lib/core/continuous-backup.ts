// A replica of continuous backup (lib/sqlite/litestream.ts), as LITESTREAM_REPLICA_URL or `db restore
// --from` names it.

/** The kinds of replica Litestream 0.3 writes to. */
export const REPLICA_SCHEMES = ["file:", "s3:", "gcs:", "abs:", "sftp:"];

/** A replica URL as it may be shown: without a user name or password, should one be written in it. */
export function replicaUrlForDisplay(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  if (!parsed.username && !parsed.password) return url;
  parsed.username = "";
  parsed.password = "";
  return parsed.toString();
}

/**
 * Whether continuous backup is configured (LITESTREAM_REPLICA_URL or LITESTREAM_CONFIG), and Litestream
 * then owns the checkpoints: it holds a read transaction to follow the WAL and checkpoints after
 * copying it, and a checkpoint of the app's that restarts the WAL between two of its copies can cost
 * it its place (Litestream's tips: turn the application's automatic checkpoints off). So every
 * connection turns SQLite's automatic checkpoint off and never cuts the WAL back (db/client.ts,
 * lib/sqlite/background-checkpoint.ts), an erasure does not empty the WAL (lib/sqlite/checkpoint.ts),
 * and the server starts no checkpointer thread (lib/server/writers.ts). Read from the raw environment:
 * opening a database must not parse the rest of it (db/master-key.ts).
 */
export function checkpointsLeftToLitestream(source: Record<string, string | undefined> = process.env): boolean {
  return Boolean(source.LITESTREAM_REPLICA_URL?.trim() || source.LITESTREAM_CONFIG?.trim());
}
