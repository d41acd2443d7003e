import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";

/** env() as the server would see it with `values` in its environment (a fresh module: env() parses once). */
async function envWith(values: Record<string, string | undefined>) {
  vi.resetModules();
  for (const [name, value] of Object.entries(values)) vi.stubEnv(name, value);
  const { env } = await import("@/lib/core/env");
  return env;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("WEB_CONCURRENCY and READ_THREADS", () => {
  it("run one worker per available core by default, each with 2 reader threads alone or 1 among several", async () => {
    const env = (await envWith({ WEB_CONCURRENCY: undefined, READ_THREADS: undefined }))();
    expect(env.WEB_CONCURRENCY).toBe(availableParallelism());
    expect(env.READ_THREADS).toBe(availableParallelism() > 1 ? 1 : 2);
    expect((await envWith({ WEB_CONCURRENCY: "1", READ_THREADS: undefined }))()).toMatchObject({ WEB_CONCURRENCY: 1, READ_THREADS: 2 });
    expect((await envWith({ WEB_CONCURRENCY: "4", READ_THREADS: undefined }))()).toMatchObject({ WEB_CONCURRENCY: 4, READ_THREADS: 1 });
    expect((await envWith({ WEB_CONCURRENCY: "4", READ_THREADS: "0" }))()).toMatchObject({ WEB_CONCURRENCY: 4, READ_THREADS: 0 });
  });

  it("refuse a worker count that is not a whole number from 1 to 64, naming the variable", async () => {
    for (const value of ["0", "-1", "two", "1.5", "65"]) {
      const env = await envWith({ WEB_CONCURRENCY: value });
      expect(() => env(), value).toThrow(/^Invalid environment: WEB_CONCURRENCY: /);
    }
  });
});

describe("delivery settings", () => {
  it("default to Svix's schedule, 15 s, 5 days, 30 s, 1 s, 4 and 30 days, with https-only public targets and no mail server", async () => {
    const env = (await envWith({ DELIVERY_RETRY_SCHEDULE: undefined, SMTP_URL: undefined, WEBHOOK_ALLOW_HTTP: undefined, WEBHOOK_ALLOW_PRIVATE: undefined }))();
    expect(env).toMatchObject({
      DELIVERY_RETRY_SCHEDULE: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
      DELIVERY_TIMEOUT: 15_000,
      DELIVERY_DISABLE_AFTER: 5 * 86_400_000,
      DELIVERY_LEASE: 30_000,
      DELIVERY_POLL: 1_000,
      DELIVERY_CONCURRENCY: 4,
      DELIVERY_RETENTION: 30 * 86_400_000,
      DELIVERY_SENDER: "on",
      WEBHOOK_ALLOW_HTTP: false,
      WEBHOOK_ALLOW_PRIVATE: false,
    });
    expect(env.SMTP_URL).toBeUndefined();
  });

  it("read lengths of time in ms, s, m, h and d, and refuse anything else naming the variable", async () => {
    expect((await envWith({ DELIVERY_RETRY_SCHEDULE: "250ms, 2s,1m", DELIVERY_TIMEOUT: "1500ms", WEBHOOK_ALLOW_PRIVATE: "1" }))()).toMatchObject({
      DELIVERY_RETRY_SCHEDULE: [250, 2_000, 60_000],
      DELIVERY_TIMEOUT: 1_500,
      WEBHOOK_ALLOW_PRIVATE: true,
    });
    for (const [name, value] of [
      ["DELIVERY_RETRY_SCHEDULE", "5s,,5m"],
      ["DELIVERY_TIMEOUT", "15"],
      ["DELIVERY_LEASE", "1w"],
      ["WEBHOOK_ALLOW_HTTP", "yes"],
      ["SMTP_URL", "https://mail.example"],
    ] as const) {
      vi.unstubAllEnvs();
      const env = await envWith({ [name]: value });
      expect(() => env(), `${name}=${value}`).toThrow(new RegExp(`^Invalid environment: ${name}: `));
    }
    expect((await envWith({ SMTP_URL: "smtps://user:secret@mail.example:465" }))().SMTP_URL).toBe("smtps://user:secret@mail.example:465");
  });
});

describe("PUBLIC_URL", () => {
  it("is the origin of the links in emails: http://localhost:PORT by default, an http(s) URL's origin otherwise", async () => {
    expect((await envWith({ PUBLIC_URL: undefined, PORT: "4100" }))().PUBLIC_URL).toBe("http://localhost:4100");
    expect((await envWith({ PUBLIC_URL: "https://Waitlist.Example.com/", PORT: undefined }))().PUBLIC_URL).toBe("https://waitlist.example.com");
    for (const value of ["ftp://files.example", "waitlist.example.com"]) {
      vi.unstubAllEnvs();
      const env = await envWith({ PUBLIC_URL: value });
      expect(() => env(), value).toThrow(/^Invalid environment: PUBLIC_URL: must be an http:\/\/ or https:\/\/ URL/);
    }
  });
});

describe("SECRETS_KEY", () => {
  it("is 32 bytes as 64 hex digits or base64; unset means the key file; anything else is refused, naming the variable", async () => {
    const hex = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
    expect((await envWith({ SECRETS_KEY: undefined }))().SECRETS_KEY).toBeUndefined();
    expect((await envWith({ SECRETS_KEY: hex }))().SECRETS_KEY).toEqual(Buffer.from(hex, "hex"));
    expect((await envWith({ SECRETS_KEY: Buffer.from(hex, "hex").toString("base64") }))().SECRETS_KEY).toEqual(Buffer.from(hex, "hex"));
    for (const value of ["short", hex.slice(2), `${hex}00`, Buffer.alloc(16).toString("base64")]) {
      const env = await envWith({ SECRETS_KEY: value });
      expect(() => env(), value).toThrow(/^Invalid environment: SECRETS_KEY: must be 32 bytes/);
    }
  });
});

describe("DATABASE_URL", () => {
  it("is SQLite's file unless set; a postgres:// or postgresql:// URL, several hosts included, names PostgreSQL", async () => {
    expect((await envWith({ DATABASE_URL: undefined }))().DATABASE_URL).toBeUndefined();
    expect((await envWith({ DATABASE_URL: "  " }))().DATABASE_URL).toBeUndefined();
    const multiHost = "postgres://app:secret@db1:5432,db2:5432,db3:5432/waitlist?target_session_attrs=primary";
    expect((await envWith({ DATABASE_URL: ` ${multiHost} ` }))().DATABASE_URL).toBe(multiHost);
    expect((await envWith({ DATABASE_URL: "postgresql://localhost/waitlist" }))().DATABASE_URL).toBe("postgresql://localhost/waitlist");
    for (const value of ["mysql://localhost/waitlist", "./data/waitlist.db", "postgres://", "postgres://host/db with space"]) {
      const env = await envWith({ DATABASE_URL: value });
      expect(() => env(), value).toThrow(/^Invalid environment: DATABASE_URL: must be a postgres:\/\/ or postgresql:\/\/ URL$/);
    }
  });

  it("refuses Litestream beside it, saying what backs PostgreSQL up instead", async () => {
    const env = await envWith({ DATABASE_URL: "postgres://localhost/waitlist", LITESTREAM_REPLICA_URL: "file:///var/backups/waitlist" });
    expect(() => env()).toThrow(/^Invalid environment: DATABASE_URL: Litestream backs up SQLite's file: with PostgreSQL, use its own backups \(pg_dump/);
  });
});

describe("continuous backup: LITESTREAM_REPLICA_URL and LITESTREAM_CONFIG", () => {
  it("is off unless one is set; a replica is a file:// or s3:// (or gcs, abs, sftp) URL", async () => {
    const unset = (await envWith({ LITESTREAM_REPLICA_URL: undefined, LITESTREAM_CONFIG: undefined }))();
    expect([unset.LITESTREAM_REPLICA_URL, unset.LITESTREAM_CONFIG]).toEqual([undefined, undefined]);
    expect((await envWith({ LITESTREAM_REPLICA_URL: " file:///var/backups/waitlist " }))().LITESTREAM_REPLICA_URL).toBe("file:///var/backups/waitlist");
    expect((await envWith({ LITESTREAM_REPLICA_URL: "s3://launch-backups/waitlist" }))().LITESTREAM_REPLICA_URL).toBe("s3://launch-backups/waitlist");
    const config = (await envWith({ LITESTREAM_REPLICA_URL: "", LITESTREAM_CONFIG: "/etc/litestream.yml" }))();
    expect([config.LITESTREAM_REPLICA_URL, config.LITESTREAM_CONFIG]).toEqual([undefined, "/etc/litestream.yml"]);
    for (const value of ["/var/backups/waitlist", "https://bucket.example.com/waitlist", "ftp://host/x"]) {
      vi.unstubAllEnvs();
      const env = await envWith({ LITESTREAM_REPLICA_URL: value });
      expect(() => env(), value).toThrow(/^Invalid environment: LITESTREAM_REPLICA_URL: must be a file:\/\/\/folder or s3:\/\/bucket\/path URL/);
    }
  });

  it("refuses both at once, naming them", async () => {
    const env = await envWith({ LITESTREAM_REPLICA_URL: "file:///var/backups/waitlist", LITESTREAM_CONFIG: "/etc/litestream.yml" });
    expect(() => env()).toThrow(/^Invalid environment: LITESTREAM_CONFIG: set either LITESTREAM_REPLICA_URL or LITESTREAM_CONFIG, not both/);
  });
});

describe("ENV_DEFAULTS, the one list of defaults the docs quote", () => {
  it("is what an empty environment gives", async () => {
    const { ENV_DEFAULTS, parseDelay, parseEnv } = await import("@/lib/core/env");
    const parsed = parseEnv({}) as Record<string, unknown>;
    // As written in the environment: lengths of time are parsed to milliseconds, 0/1 flags to booleans.
    const asParsed = (name: string, fallback: string | number) => {
      if (name === "DELIVERY_RETRY_SCHEDULE") return String(fallback).split(",").map(parseDelay);
      if (name.startsWith("WEBHOOK_ALLOW_")) return fallback === "1";
      return typeof fallback === "string" && parseDelay(fallback) !== undefined ? parseDelay(fallback) : fallback;
    };
    for (const [name, fallback] of Object.entries(ENV_DEFAULTS)) expect(parsed[name], name).toEqual(asParsed(name, fallback));
  });

  it("is what the README's configuration table says", async () => {
    const { ENV_DEFAULTS } = await import("@/lib/core/env");
    const readme = readFileSync(join(process.cwd(), "README.md"), "utf8");
    const quoted = new Map([...readme.matchAll(/^\| `([A-Z_]+)` \| `([^`]+)` \|/gm)].map((match) => [match[1]!, match[2]!]));
    const checked = Object.entries(ENV_DEFAULTS).filter(([name]) => quoted.has(name));
    expect(checked.length).toBeGreaterThanOrEqual(10);
    for (const [name, fallback] of checked) expect(quoted.get(name), name).toBe(String(fallback));
  });
});
