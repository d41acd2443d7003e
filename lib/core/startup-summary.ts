import { resolve } from "node:path";
import type { Env } from "./env";
import { withoutPassword } from "./database-url";
import { replicaUrlForDisplay } from "./continuous-backup";

// What `npm start` and `npm run demo` say once at start-up, one line each, so that a newcomer sees
// whether emails leave, where their links point, and which database file is in use: the server logs
// them as JSON lines, the demo prints them in its banner.

export interface StartupSummary {
  email: string;
  publicUrl: string;
  database: string;
  continuousBackup: string;
}

/** The summary of `env`; `source` is the raw environment, which tells a PUBLIC_URL set from its default. */
export function startupSummary(env: Pick<Env, "SMTP_URL" | "MAIL_FROM" | "PUBLIC_URL" | "DATABASE_PATH"> & Partial<Pick<Env, "DATABASE_URL">> & Partial<Pick<Env, "LITESTREAM_REPLICA_URL" | "LITESTREAM_CONFIG">>, source: Record<string, string | undefined> = process.env): StartupSummary {
  // The host and port only: SMTP_URL may carry a password.
  const smtp = env.SMTP_URL === undefined ? undefined : new URL(env.SMTP_URL);
  return {
    email: smtp
      ? `sent through ${smtp.hostname}:${smtp.port || (smtp.protocol === "smtps:" ? "465" : "587")} (SMTP_URL), from ${env.MAIL_FROM}`
      : "not configured: emails are kept as not sent; set SMTP_URL (and MAIL_FROM) to send them",
    publicUrl: source.PUBLIC_URL?.trim()
      ? `${env.PUBLIC_URL} (PUBLIC_URL), in every link of an email`
      : `${env.PUBLIC_URL}, which works only on this machine, in every link of an email; set PUBLIC_URL to where people reach this server`,
    database: env.DATABASE_URL ? `PostgreSQL, ${withoutPassword(env.DATABASE_URL)} (DATABASE_URL)` : `SQLite, ${resolve(env.DATABASE_PATH)} (DATABASE_PATH)`,
    // The replica without credentials, should any be written in its URL; a config file by its path only.
    continuousBackup: env.DATABASE_URL
      ? "PostgreSQL's own: pg_dump, or your provider's point-in-time recovery (see /docs/production)"
      : env.LITESTREAM_REPLICA_URL
      ? `on: Litestream copies every change to ${replicaUrlForDisplay(env.LITESTREAM_REPLICA_URL)} within a second (LITESTREAM_REPLICA_URL)`
      : env.LITESTREAM_CONFIG
        ? `on: Litestream, to the replicas in ${resolve(env.LITESTREAM_CONFIG)} (LITESTREAM_CONFIG)`
        : "off: set LITESTREAM_REPLICA_URL to copy every change to a folder or a bucket within a second",
  };
}

/** The summary as the lines a person reads: "email: …", "public URL: …", "database: …", "continuous backup: …". */
export function startupLines(summary: StartupSummary): string[] {
  return [`email: ${summary.email}`, `public URL: ${summary.publicUrl}`, `database: ${summary.database}`, `continuous backup: ${summary.continuousBackup}`];
}
