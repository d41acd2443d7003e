import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/core/env";
import { startupLines, startupSummary } from "@/lib/core/startup-summary";

// The four start-up lines of `npm start` and `npm run demo`, from the environment as the server parses it.

const summaryOf = (source: Record<string, string>) => startupLines(startupSummary(parseEnv(source), source));

describe("startupSummary", () => {
  it("names the mail server's host and port and the From, never SMTP_URL's password", () => {
    const lines = summaryOf({ SMTP_URL: "smtp://launch:s3cret-pass@mail.example.com:2525", MAIL_FROM: "Launch <launch@example.com>" });
    expect(lines[0]).toBe("email: sent through mail.example.com:2525 (SMTP_URL), from Launch <launch@example.com>");
    expect(lines.join("\n")).not.toContain("s3cret");
    expect(summaryOf({ SMTP_URL: "smtps://mail.example.com" })[0]).toMatch(/^email: sent through mail\.example\.com:465 \(SMTP_URL\)/);
    expect(summaryOf({ SMTP_URL: "smtp://mail.example.com" })[0]).toMatch(/^email: sent through mail\.example\.com:587 \(SMTP_URL\)/);
  });

  it("says email is not configured, and what to set", () => {
    expect(summaryOf({})[0]).toBe("email: not configured: emails are kept as not sent; set SMTP_URL (and MAIL_FROM) to send them");
  });

  it("gives the public URL and where it comes from: PUBLIC_URL, or the local default and what to set", () => {
    expect(summaryOf({ PUBLIC_URL: "https://waitlist.example.com/" })[1]).toBe("public URL: https://waitlist.example.com (PUBLIC_URL), in every link of an email");
    expect(summaryOf({ PORT: "4000" })[1]).toBe("public URL: http://localhost:4000, which works only on this machine, in every link of an email; set PUBLIC_URL to where people reach this server");
  });

  it("says whether continuous backup is on and where it goes, never a password written in the replica's URL", () => {
    expect(summaryOf({})[3]).toBe("continuous backup: off: set LITESTREAM_REPLICA_URL to copy every change to a folder or a bucket within a second");
    expect(summaryOf({ LITESTREAM_REPLICA_URL: "file:///var/backups/waitlist" })[3]).toBe(
      "continuous backup: on: Litestream copies every change to file:///var/backups/waitlist within a second (LITESTREAM_REPLICA_URL)",
    );
    const s3 = summaryOf({ LITESTREAM_REPLICA_URL: "s3://AKIAKEY:s3cret-key@launch-backups/waitlist" });
    expect(s3[3]).toBe("continuous backup: on: Litestream copies every change to s3://launch-backups/waitlist within a second (LITESTREAM_REPLICA_URL)");
    expect(s3.join("\n")).not.toMatch(/s3cret|AKIAKEY/);
    expect(summaryOf({ LITESTREAM_CONFIG: "deploy/litestream.yml" })[3]).toBe(`continuous backup: on: Litestream, to the replicas in ${resolve("deploy/litestream.yml")} (LITESTREAM_CONFIG)`);
  });

  it("names the engine and the database file, as an absolute path", () => {
    expect(summaryOf({ DATABASE_PATH: "data/launch.db" })[2]).toBe(`database: SQLite, ${resolve("data/launch.db")} (DATABASE_PATH)`);
  });

  it("names PostgreSQL's servers and database, never the password (in the user part or a parameter), and its own backups", () => {
    const lines = summaryOf({ DATABASE_URL: "postgres://app:s3cret@db1:5432,db2:5432/waitlist?password=other&target_session_attrs=primary" });
    expect(lines[2]).toBe("database: PostgreSQL, postgres://app@db1:5432,db2:5432/waitlist?target_session_attrs=primary (DATABASE_URL)");
    expect(lines[3]).toBe("continuous backup: PostgreSQL's own: pg_dump, or your provider's point-in-time recovery (see /docs/production)");
    expect(lines.join("\n")).not.toMatch(/s3cret|other/);
  });
});
