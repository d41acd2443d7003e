import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliSandbox, expectOneLineError, type CliSandbox } from "./run-cli";

let cli: CliSandbox;
beforeAll(() => (cli = cliSandbox()));
afterAll(() => cli.remove());

describe("waitlists", () => {
  it("creates a waitlist and lists it", () => {
    const created = cli.json("waitlists", "create", "--name", "Beta", "--website", "https://example.com/beta");
    expect(created).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: "Beta", website: "https://example.com/beta" });
    const listed = cli.json<{ waitlists: Record<string, unknown>[] }>("waitlists", "list");
    expect(listed.waitlists).toEqual([{ ...created, created_at: expect.any(String), signups: 0 }]);
    const human = cli.run("waitlists", "list");
    expect(human.status).toBe(0);
    expect(human.stdout).toContain("Beta");
  });

  it("refuses a bad website with one line and creates nothing", () => {
    const before = cli.rows("waitlists");
    const line = expectOneLineError(cli.run("waitlists", "create", "--name", "Bad", "--website", "ftp://example.com", "--json"));
    expect(line).toBe('error: invalid --website: must be an absolute http or https URL (got "ftp://example.com")');
    expect(expectOneLineError(cli.run("waitlists", "create", "--name", " ", "--website", "https://e.com"))).toMatch(/^error: invalid --name/);
    expect(cli.rows("waitlists")).toEqual(before);
  });
});

describe("usage errors", () => {
  it.each([
    [["bogus"], /^error: unknown command 'bogus'/],
    [["waitlists", "create", "--name", "x"], /^error: required option '--website <url>' not specified/],
    [["signups", "import", "--waitlist", "x"], /^error: missing required argument 'file'/],
    [["keys", "list", "--nope"], /^error: unknown option '--nope'/],
  ])("%j exits 2 with one line", (args, message) => {
    const result = cli.run(...args);
    expect(result.status).toBe(2);
    expect(expectOneLineError(result)).toMatch(message);
  });

  it("prints help for every command", () => {
    for (const args of [[], ["waitlists", "create"], ["waitlists", "list"], ["signups", "import"], ["keys", "create"], ["keys", "list"], ["keys", "revoke"], ["audit", "list"], ["db", "migrate"], ["db", "seed-demo"]]) {
      const result = cli.run(...args, "--help");
      expect(result.status, args.join(" ")).toBe(0);
      expect(result.stdout).toContain("Usage: waitlist");
      if (args.length > 0) expect(result.stdout).toContain("--json");
    }
  });
});

describe("keys", () => {
  it("creates a key shown once, lists it without key or hash, and revokes it", () => {
    const created = cli.json<{ id: string; name: string; key: string; roles: string[] }>("keys", "create", "--name", "ci", "--role", "waitlist:view", "--expires-in", "30d");
    expect(created).toMatchObject({ name: "ci", roles: ["waitlist:view"] });
    expect(created.key).toMatch(/^wl_[A-Za-z0-9_-]{43}$/);

    const listed = cli.run("keys", "list", "--json");
    expect(listed.stdout).not.toContain(created.key);
    expect(listed.stdout).not.toContain(String(cli.rows("api_keys")[0]!.key_hash));
    const { keys } = JSON.parse(listed.stdout) as { keys: Record<string, unknown>[] };
    expect(keys).toEqual([expect.objectContaining({ id: created.id, prefix: created.key.slice(0, 9), roles: ["waitlist:view"], status: "active", revoked_at: null })]);
    expect(Date.parse(String(keys[0]!.expires_at)) - Date.now()).toBeGreaterThan(29 * 86_400_000);
    const human = cli.run("keys", "list");
    expect(human.stdout).not.toContain(created.key);
    expect(human.stdout).toContain(created.id);

    expect(cli.json("keys", "revoke", created.id)).toEqual({ id: created.id, name: "ci", prefix: created.key.slice(0, 9), revoked: true });
    const after = cli.json<{ keys: Record<string, unknown>[] }>("keys", "list").keys[0]!;
    expect(after).toMatchObject({ status: "revoked", revoked_at: expect.any(String) });
  });

  it("defaults to the waitlist:view role and never expires", () => {
    expect(cli.json("keys", "create", "--name", "default")).toMatchObject({ roles: ["waitlist:view"], expires_at: null });
  });

  it("creates an admin key with --role waitlist:admin", () => {
    expect(cli.json("keys", "create", "--name", "admin", "--role", "waitlist:admin")).toMatchObject({ roles: ["waitlist:admin"] });
  });

  it("refuses unknown roles, bad durations and unknown ids with one line", () => {
    const before = cli.rows("api_keys");
    expect(expectOneLineError(cli.run("keys", "create", "--name", "x", "--role", "admin"))).toBe('error: invalid --role: unknown role "admin" (known roles: waitlist:view, waitlist:admin)');
    for (const duration of ["1y", "3651d"]) {
      expect(expectOneLineError(cli.run("keys", "create", "--name", "x", "--expires-in", duration))).toMatch(/^error: invalid --expires-in: /);
    }
    expect(cli.rows("api_keys")).toEqual(before);
    const revoke = cli.run("keys", "revoke", "00000000-0000-4000-8000-000000000000");
    expect(revoke.status).toBe(1);
    expect(expectOneLineError(revoke)).toBe('error: No API key has the id "00000000-0000-4000-8000-000000000000" (give an id, a prefix such as wl_AbC123 or the whole key)');
  });
});

describe("db", () => {
  it("migrates and seeds demo data idempotently", () => {
    expect(cli.json("db", "migrate")).toMatchObject({ migrated: true });
    const first = cli.json("db", "seed-demo");
    expect(first).toEqual({ waitlists_created: 5, signups_created: 66_000 });
    const count = cli.rows("signups").length;
    expect(cli.json("db", "seed-demo")).toEqual({ waitlists_created: 0, signups_created: 0 });
    expect(cli.rows("signups")).toHaveLength(count);
  });
});
