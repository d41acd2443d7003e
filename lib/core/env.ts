import "server-only";
import { availableParallelism } from "node:os";
import { z } from "zod";
import { REPLICA_SCHEMES } from "./continuous-backup";

/** CORS_ORIGINS: any origin (`*`), these origins, or none (CORS off). */
export type CorsPolicy = "*" | readonly string[] | undefined;

/** Empty means off, `*` any origin, else comma-separated origins (`https://app.example, http://localhost:5173`). */
function parseCorsOrigins(value: string | undefined, context: z.RefinementCtx): CorsPolicy {
  const text = value?.trim() ?? "";
  if (text === "") return undefined;
  if (text === "*") return "*";
  const origins: string[] = [];
  for (const entry of text.split(",").map((each) => each.trim())) {
    const url = URL.canParse(entry) ? new URL(entry) : undefined;
    const web = url?.protocol === "http:" || url?.protocol === "https:";
    // An origin exactly as a browser sends it in Origin: scheme://host[:port], lower case, no default port, no path.
    if (!web || url!.origin !== entry) {
      const hint = entry === "*" ? ": `*` stands alone" : web ? ` (did you mean "${url!.origin}"?)` : ": write scheme://host[:port]";
      context.addIssue({ code: "custom", message: `"${entry}" is not an origin${hint}` });
      return z.NEVER;
    }
    if (!origins.includes(entry)) origins.push(entry);
  }
  return origins;
}

const SECRETS_KEY_FORMAT = "must be 32 bytes, written as 64 hex digits or in base64 (openssl rand -hex 32)";

/**
 * SECRETS_KEY (and a rotation's SECRETS_KEY_NEXT): 32 bytes as 64 hex digits or base64; undefined when
 * empty, null when malformed. db/master-key.ts reads it with this, without env(): opening a database
 * must not fix the rest of the environment before a test (or the CLI) has set DATABASE_PATH.
 */
export function parseSecretsKey(value: string | undefined): Buffer | undefined | null {
  const text = value?.trim() ?? "";
  if (text === "") return undefined;
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, "hex") : /^[A-Za-z0-9+/_-]{43}=?$/.test(text) ? Buffer.from(text, "base64") : undefined;
  return key?.length === 32 ? key : null;
}

/** The master key SECRETS_KEY sets, or undefined; throws, naming the variable, when it is malformed. */
export function secretsKeyFromEnv(name = "SECRETS_KEY"): Buffer | undefined {
  const key = parseSecretsKey(process.env[name]);
  if (key === null) throw new Error(`Invalid environment: ${name}: ${SECRETS_KEY_FORMAT}`);
  return key;
}

/**
 * The defaults of the variables that have a fixed one, as they are written in the environment: the
 * schema below reads them, and the docs' configuration table and the OpenAPI document quote them.
 */
export const ENV_DEFAULTS = {
  DATABASE_PATH: "./data/waitlist.db",
  PORT: 3000,
  RATE_LIMIT_PER_MINUTE: 600,
  AUTH_FAILURES_PER_MINUTE: 30,
  DASHBOARD_REQUESTS_PER_MINUTE: 300,
  TRUSTED_PROXY_HOPS: 0,
  REQUEST_LOG: "on",
  IMPORT_MAX_BYTES: 200 * 1024 * 1024,
  WEBHOOK_ALLOW_HTTP: "0",
  WEBHOOK_ALLOW_PRIVATE: "0",
  JOINS_PER_ADDRESS_PER_HOUR: 10,
  JOINS_PER_CLIENT_PER_HOUR: 300,
  JOINS_PER_WAITLIST_PER_MINUTE: 120_000,
  REFERRALS_PER_REFERRER_PER_DAY: 25,
  JOIN_BURST_PER_CLIENT: 10,
  EMAILS_PER_ADDRESS_PER_HOUR: 5,
  MAIL_FROM: "Waitlist <waitlist@localhost>",
  DELIVERY_SENDER: "on",
  DELIVERY_RETRY_SCHEDULE: "5s,5m,30m,2h,5h,10h,10h",
  DELIVERY_TIMEOUT: "15s",
  DELIVERY_DISABLE_AFTER: "5d",
  DELIVERY_LEASE: "30s",
  DELIVERY_POLL: "1s",
  DELIVERY_CONCURRENCY: 4,
  DELIVERY_RETENTION: "30d",
} as const;

const DELAY_UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** A length of time written `250ms`, `5s`, `30m`, `2h` or `5d`, in milliseconds. */
export function parseDelay(text: string): number | undefined {
  const match = /^([0-9]{1,9})(ms|s|m|h|d)$/.exec(text.trim());
  return match ? Number(match[1]) * DELAY_UNIT_MS[match[2] as keyof typeof DELAY_UNIT_MS] : undefined;
}

const delay = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text, context) => {
      const ms = parseDelay(text);
      if (ms !== undefined) return ms;
      context.addIssue({ code: "custom", message: `"${text}" is not a length of time such as 500ms, 5s, 30m, 2h or 5d` });
      return z.NEVER;
    });

/** A comma-separated list of lengths of time (the retry schedule). */
const delays = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text, context) => {
      const parsed = text.split(",").map(parseDelay);
      if (parsed.length > 0 && parsed.every((each) => each !== undefined)) return parsed as number[];
      context.addIssue({ code: "custom", message: `"${text}" is not a comma-separated list of lengths of time such as 5s,5m,30m,2h` });
      return z.NEVER;
    });

const flag = (fallback: "0" | "1") => z.enum(["0", "1"]).default(fallback).transform((value) => value === "1");

/** smtp:// or smtps:// with optional credentials; unset means invitation emails are rendered, not sent. */
const smtpUrl = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined))
  .refine((value) => value === undefined || (URL.canParse(value) && ["smtp:", "smtps:"].includes(new URL(value).protocol)), "must be an smtp:// or smtps:// URL");

/** A replica URL of Litestream 0.3: file:///folder, s3://bucket/path (or gcs://, abs://, sftp://); unset or empty means off. */
const replicaUrl = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined))
  .refine(
    (value) => value === undefined || (URL.canParse(value) && REPLICA_SCHEMES.includes(new URL(value).protocol)),
    "must be a file:///folder or s3://bucket/path URL (or gcs://, abs://, sftp://)",
  );

/**
 * A PostgreSQL server (postgres://user:password@host:5432/database); several hosts, comma-separated,
 * with `?target_session_attrs=primary`, follow a failover. Unset or empty: SQLite.
 */
const databaseUrl = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined))
  // Not URL.canParse: a multi-host URL (host1:5432,host2:5432) is not a WHATWG URL.
  .refine((value) => value === undefined || /^postgres(ql)?:\/\/[^\s]+$/.test(value), "must be a postgres:// or postgresql:// URL");

const envSchema = z.object({
  /** The SQLite file (the embedded default), unless DATABASE_URL names a PostgreSQL server. */
  DATABASE_PATH: z.string().min(1).default(ENV_DEFAULTS.DATABASE_PATH),
  /** PostgreSQL instead of SQLite (lib/core/env.ts databaseUrl). */
  DATABASE_URL: databaseUrl,
  PORT: z.coerce.number().int().min(1).max(65_535).default(ENV_DEFAULTS.PORT),
  /** Interface the production server listens on (`npm start`); all interfaces by default. */
  HOST: z.string().min(1).optional(),
  /** Requests per minute per API key on /v1, counted per server process. */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(ENV_DEFAULTS.RATE_LIMIT_PER_MINUTE),
  /** Joins (the join page and POST /v1/waitlist/{id}/signup together) per hour per address and waitlist, counted in SQLite. */
  JOINS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).default(ENV_DEFAULTS.JOINS_PER_ADDRESS_PER_HOUR),
  /** Joins per hour per client address (IPv6 by /64), any address and waitlist, counted in SQLite: room for a busy NAT. */
  JOINS_PER_CLIENT_PER_HOUR: z.coerce.number().int().min(1).default(ENV_DEFAULTS.JOINS_PER_CLIENT_PER_HOUR),
  /** Joins per minute per waitlist, counted in SQLite: launch day is 1,000 a second. */
  JOINS_PER_WAITLIST_PER_MINUTE: z.coerce.number().int().min(1).default(ENV_DEFAULTS.JOINS_PER_WAITLIST_PER_MINUTE),
  /** Referrals that count per referrer in any 24 hours (lib/domain/joining/referrals.ts); the rest are kept as not counted. */
  REFERRALS_PER_REFERRER_PER_DAY: z.coerce.number().int().min(1).default(ENV_DEFAULTS.REFERRALS_PER_REFERRER_PER_DAY),
  /** Joins of one waitlist from one client address in 10 minutes; the ones past it are flagged `burst` for review (lib/domain/fraud/burst.ts). */
  JOIN_BURST_PER_CLIENT: z.coerce.number().int().min(1).default(ENV_DEFAULTS.JOIN_BURST_PER_CLIENT),
  /** Confirmation (and "your page") emails per address per hour, across all waitlists, counted in SQLite. */
  EMAILS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).default(ENV_DEFAULTS.EMAILS_PER_ADDRESS_PER_HOUR),
  /** Failed /v1 authentications per minute per client address before it gets 429s, per process. */
  AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().min(1).default(ENV_DEFAULTS.AUTH_FAILURES_PER_MINUTE),
  /**
   * Dashboard requests (pages, navigations, CSV exports) per minute per session, per process: far
   * above what a person clicking makes, well below what a script in a tab can.
   */
  DASHBOARD_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).default(ENV_DEFAULTS.DASHBOARD_REQUESTS_PER_MINUTE),
  /**
   * How many reverse proxies in front of the server append to X-Forwarded-For. 0 (the default):
   * the client address is the connection's peer and X-Forwarded-For is not trusted.
   */
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(ENV_DEFAULTS.TRUSTED_PROXY_HOPS),
  /**
   * Reader threads of the production server for the dashboard's counts, facets, charts and searches
   * (read-only connections of their own), so that none of them stalls the thread serving /v1. 0 runs
   * them on the main thread.
   */
  READ_THREADS: z.coerce.number().int().min(0).max(16).optional(),
  /**
   * Worker processes of `npm start` (node:cluster), one per core by default; 1 runs the server in
   * the one process, without a cluster.
   */
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(() => availableParallelism()),
  /** One JSON line per request on stdout (`npm start`); "off" silences it. */
  REQUEST_LOG: z.enum(["on", "off"]).default(ENV_DEFAULTS.REQUEST_LOG),
  /** The largest file the dashboard accepts for an import, in bytes (200 MB); larger uploads get 413. */
  IMPORT_MAX_BYTES: z.coerce.number().int().min(1).default(ENV_DEFAULTS.IMPORT_MAX_BYTES),
  /** Browser origins allowed to call /v1 (CORS): comma-separated origins, or `*`. Unset: none. */
  CORS_ORIGINS: z.string().optional().transform(parseCorsOrigins),
  /** Webhook URLs may be http:// as well as https:// (tests, a receiver on the same host). */
  WEBHOOK_ALLOW_HTTP: flag(ENV_DEFAULTS.WEBHOOK_ALLOW_HTTP),
  /** Webhooks may connect to loopback, private, link-local and metadata addresses. */
  WEBHOOK_ALLOW_PRIVATE: flag(ENV_DEFAULTS.WEBHOOK_ALLOW_PRIVATE),
  /** The mail server of invitation emails (smtp://user:pass@host:587 or smtps://…:465). */
  SMTP_URL: smtpUrl,
  /**
   * Where people reach this server (`https://waitlist.example.com`), for the links in emails (the
   * join page's confirmation link). Unset: http://localhost:PORT, which only works on this machine.
   */
  PUBLIC_URL: z
    .string()
    .trim()
    .optional()
    .refine((value) => !value || (URL.canParse(value) && ["http:", "https:"].includes(new URL(value).protocol)), "must be an http:// or https:// URL")
    .transform((value) => (value ? new URL(value).origin : undefined)),
  /** The From of invitation emails. */
  MAIL_FROM: z.string().trim().min(1).default(ENV_DEFAULTS.MAIL_FROM),
  /** The waits before each retry of a failed delivery; after the last one it is marked failed. */
  DELIVERY_RETRY_SCHEDULE: delays(ENV_DEFAULTS.DELIVERY_RETRY_SCHEDULE),
  /** How long a receiver has to answer 2xx (or a mail server to accept a message). */
  DELIVERY_TIMEOUT: delay(ENV_DEFAULTS.DELIVERY_TIMEOUT),
  /** An endpoint failing for this long (no success in between) is disabled. */
  DELIVERY_DISABLE_AFTER: delay(ENV_DEFAULTS.DELIVERY_DISABLE_AFTER),
  /** How long the sender's lease (and each delivery's while it is sent) lasts without renewal. */
  DELIVERY_LEASE: delay(ENV_DEFAULTS.DELIVERY_LEASE),
  /** How often an idle sender looks for new events and due retries. */
  DELIVERY_POLL: delay(ENV_DEFAULTS.DELIVERY_POLL),
  /** Sends in flight per endpoint (and to the mail server) at once. */
  DELIVERY_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(ENV_DEFAULTS.DELIVERY_CONCURRENCY),
  /** Events, their deliveries and rendered emails are dropped this long after the event. */
  DELIVERY_RETENTION: delay(ENV_DEFAULTS.DELIVERY_RETENTION),
  /** "off": this server runs no sender (another process, or none, delivers). */
  DELIVERY_SENDER: z.enum(["on", "off"]).default(ENV_DEFAULTS.DELIVERY_SENDER),
  /**
   * The key the database's secrets (webhook secrets, signing keys) are encrypted under: 32 bytes, as
   * 64 hex digits or base64. Unset: a key file beside the database (`<DATABASE_PATH>.key`, db/master-key.ts).
   */
  SECRETS_KEY: z
    .string()
    .optional()
    .transform((value, context) => {
      const key = parseSecretsKey(value);
      if (key !== null) return key;
      context.addIssue({ code: "custom", message: SECRETS_KEY_FORMAT });
      return z.NEVER;
    }),
  /**
   * Continuous backup (lib/sqlite/litestream.ts): `npm start` runs the server beside Litestream, which
   * copies the database's new pages to this replica every second. S3's credentials are Litestream's own
   * LITESTREAM_ACCESS_KEY_ID and LITESTREAM_SECRET_ACCESS_KEY. Unset: no continuous backup.
   */
  LITESTREAM_REPLICA_URL: replicaUrl,
  /** Instead of LITESTREAM_REPLICA_URL: a Litestream configuration file of your own that names DATABASE_PATH's file (another S3-compatible service, several replicas, other intervals, retention). */
  LITESTREAM_CONFIG: z
    .string()
    .optional()
    .transform((value) => (value?.trim() ? value.trim() : undefined)),
}).superRefine((parsed, context) => {
  if (parsed.DATABASE_URL && (parsed.LITESTREAM_REPLICA_URL || parsed.LITESTREAM_CONFIG)) {
    context.addIssue({ code: "custom", path: ["DATABASE_URL"], message: "Litestream backs up SQLite's file: with PostgreSQL, use its own backups (pg_dump, or your provider's point-in-time recovery) and unset LITESTREAM_REPLICA_URL and LITESTREAM_CONFIG" });
  }
  if (parsed.LITESTREAM_REPLICA_URL && parsed.LITESTREAM_CONFIG) {
    context.addIssue({ code: "custom", path: ["LITESTREAM_CONFIG"], message: "set either LITESTREAM_REPLICA_URL or LITESTREAM_CONFIG, not both (a config file can list several replicas)" });
  }
});

/**
 * Reader threads per worker unless READ_THREADS says: 2 for a single process, 1 each when there are
 * several workers, so that on 2 cores both layouts run 2 (tests/bench/README.md, "Workers").
 */
export function defaultReadThreads(workers: number): number {
  return workers > 1 ? 1 : 2;
}

const envWithDefaults = envSchema.transform((parsed) => ({
  ...parsed,
  READ_THREADS: parsed.READ_THREADS ?? defaultReadThreads(parsed.WEB_CONCURRENCY),
  PUBLIC_URL: parsed.PUBLIC_URL ?? `http://localhost:${parsed.PORT}`,
}));

export type Env = z.infer<typeof envWithDefaults>;

let cached: Env | undefined;

/** Validates an environment (process.env, or another in tests); throws one message naming every problem. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const parsed = envWithDefaults.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid environment: ${problems.join("; ")}`);
  }
  return parsed.data;
}

/** The validated environment, parsed once on first use. */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
