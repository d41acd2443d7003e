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
