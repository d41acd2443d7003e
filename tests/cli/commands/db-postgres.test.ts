import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres, type PostgresServer } from "@/tests/support/pg-server";
import { cliSandbox, expectOneLineError, type CliSandbox } from "../run-cli";

// The CLI with DATABASE_URL: the same commands on PostgreSQL (migrating, waitlists, keys, rotating the
// secrets key), each process ending once its command has (the pool closed); the commands that work on
// SQLite's file refuse in one line and name PostgreSQL's own tools.

describe("the CLI on PostgreSQL (DATABASE_URL)", () => {
  let server: PostgresServer;
  let cli: CliSandbox;
  const key = randomBytes(32).toString("hex");
  let env: Record<string, string>;
  const run = (...args: string[]) => cli.runWithEnv(env, ...args);
  const json = <T,>(...args: string[]) => {
    const result = run(...args, "--json");
    if (result.status !== 0) throw new Error(`${args.join(" ")} failed (${result.status}): ${result.stderr}`);
    return JSON.parse(result.stdout) as T;
  };

  beforeAll(async () => {
    server = await startPostgres();
    cli = cliSandbox();
    env = { DATABASE_URL: server.url.replace("postgres@", "postgres:unused-password@"), SECRETS_KEY: key };
  });
  afterAll(async () => {
    cli.remove();
    await server.stop();
  });

  it("db migrate makes the tables and says so without the password; running it again changes nothing", () => {
    const location = server.url;
    expect(json("db", "migrate")).toEqual({ database: location, migrated: true });
    const again = run("db", "migrate");
    expect([again.status, again.stdout.trim()]).toEqual([0, `Database ${location} is up to date.`]);
    expect(again.stdout + again.stderr).not.toContain("unused-password");
    // Nothing was written beside the sandbox's SQLite path.
    expect(existsSync(cli.databasePath)).toBe(false);
  });

  it("creates and lists waitlists and keys there", () => {
    const created = json<{ id: string; name: string }>("waitlists", "create", "--name", "On PostgreSQL", "--website", "https://pg.example.com");
    expect(json<{ waitlists: { id: string; name: string }[] }>("waitlists", "list").waitlists.map((each) => [each.id, each.name])).toContainEqual([created.id, "On PostgreSQL"]);
    const issued = json<{ key: string; roles: string[] }>("keys", "create", "--name", "backend", "--role", "waitlist:view");
    expect(issued.key).toMatch(/^wl_/);
    expect(json<{ keys: { name: string }[] }>("keys", "list").keys.map((each) => each.name)).toContain("backend");
  });

  it("refuses db check, backup and restore in one line, naming what to use instead", () => {
    expect(expectOneLineError(run("db", "check"))).toBe("error: db check works on SQLite's file (DATABASE_PATH); with DATABASE_URL, PostgreSQL checks its own pages: enable data checksums, or run amcheck");
    expect(expectOneLineError(run("db", "backup", join(cli.dir, "copy.db")))).toMatch(/^error: db backup works on SQLite's file \(DATABASE_PATH\); with DATABASE_URL, back PostgreSQL up with pg_dump/);
    expect(expectOneLineError(run("db", "restore", "--from", "file:///nowhere"))).toMatch(/^error: db restore works on SQLite's file \(DATABASE_PATH\); with DATABASE_URL, restore PostgreSQL with pg_restore/);
    expect(existsSync(join(cli.dir, "copy.db"))).toBe(false);
  });

  it("secrets rotate-key takes the new key from SECRETS_KEY_NEXT; the CLI then opens the secrets with it", () => {
    json("webhooks", "add", "--url", "https://hooks.example.com/in");
    expect(expectOneLineError(run("secrets", "rotate-key"))).toMatch(/SECRETS_KEY_NEXT/);
    const next = randomBytes(32).toString("hex");
    expect(cli.runWithEnv({ ...env, SECRETS_KEY_NEXT: next }, "secrets", "rotate-key", "--json").status).toBe(0);
    env = { ...env, SECRETS_KEY: next };
    const [endpoint] = json<{ endpoints: { id: string }[] }>("webhooks", "list").endpoints;
    expect(json<{ secret: string }>("webhooks", "rotate-secret", endpoint!.id).secret).toMatch(/^whsec_/);
  });

  it("an unreachable server fails in one line that names it without the password", () => {
    const result = cli.runWithEnv({ ...env, DATABASE_URL: "postgres://app:pw@127.0.0.1:1/none?connect_timeout=2" }, "waitlists", "list");
    expect(expectOneLineError(result)).toBe("error: postgres://app@127.0.0.1:1/none?connect_timeout=2: the database server cannot be reached (restarting, or a failover under way): nothing was changed; try again in a minute");
  });
});
