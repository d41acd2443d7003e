import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliSandbox, expectOneLineError, type CliSandbox } from "../run-cli";

describe("keys revoke, create and the audit list", () => {
  let cli: CliSandbox;
  beforeAll(() => (cli = cliSandbox()));
  afterAll(() => cli.remove());

  interface CreatedKey {
    id: string;
    name: string;
    key: string;
  }

  const create = (name: string, ...more: string[]) => cli.json<CreatedKey>("keys", "create", "--name", name, ...more);
  const statusOf = (id: string) => cli.json<{ keys: { id: string; status: string }[] }>("keys", "list").keys.find((key) => key.id === id)!.status;

  /** Gives keys the same stored prefix, as two keys whose first random characters agree would have. */
  function setPrefix(ids: string[], prefix: string) {
    const db = new Database(cli.databasePath);
    try {
      for (const id of ids) db.prepare("UPDATE api_keys SET prefix = ? WHERE id = ?").run(prefix, id);
    } finally {
      db.close();
    }
  }

  describe("keys revoke", () => {
    it("revokes by the prefix keys list shows (with or without its …), audited with the actor cli", () => {
      const key = create("by prefix");
      const shown = cli.run("keys", "list").stdout.split("\n").find((line) => line.includes(key.id))!;
      const prefix = shown.split(/\s+/).find((cell) => cell.endsWith("…"))!;
      expect(prefix).toBe(`${key.key.slice(0, 9)}…`);
      expect(cli.json("keys", "revoke", prefix)).toEqual({ id: key.id, name: "by prefix", prefix: key.key.slice(0, 9), revoked: true });
      expect(statusOf(key.id)).toBe("revoked");
      const other = create("by short prefix");
      expect(cli.json("keys", "revoke", other.key.slice(0, 7))).toMatchObject({ id: other.id });
      const audit = cli.rows("audit_log").filter((row) => row.action === "key.revoke");
      expect(audit.map((row) => [row.actor, row.actor_key_id, row.target])).toEqual([
        ["cli", null, key.id],
        ["cli", null, other.id],
      ]);
    });

    it("revokes by the whole key (a leaked one) and never prints it", () => {
      const key = create("leaked");
      const result = cli.run("keys", "revoke", key.key);
      expect(result.status).toBe(0);
      expect(result.stdout).toBe(`Revoked API key ${key.id} (leaked, ${key.key.slice(0, 9)}…).\n`);
      expect(statusOf(key.id)).toBe("revoked");
      const again = cli.run("keys", "revoke", key.key);
      expect(again.stdout).toBe(`Already revoked: API key ${key.id} (leaked, ${key.key.slice(0, 9)}…).\n`);
      expect(JSON.stringify(cli.rows("audit_log"))).not.toContain(key.key);
      expect(cli.rows("audit_log").filter((row) => row.target === key.id && row.action === "key.revoke")).toHaveLength(1);
    });

    it("refuses an ambiguous prefix, listing the candidates, and revokes nothing", () => {
      const first = create("twin one");
      const second = create("twin two");
      setPrefix([first.id, second.id], "wl_Twin42");
      const before = { keys: cli.rows("api_keys"), audit: cli.rows("audit_log") };
      const line = expectOneLineError(cli.run("keys", "revoke", "wl_Twin"));
      expect(line).toBe(`error: The prefix wl_Twin matches 2 keys: ${first.id} (twin one, wl_Twin42…, active); ${second.id} (twin two, wl_Twin42…, active). Give the id or the whole key`);
      expect(cli.rows("api_keys")).toEqual(before.keys);
      expect(cli.rows("audit_log")).toEqual(before.audit);
      // The whole key still picks one of them.
      expect(cli.json("keys", "revoke", second.key)).toMatchObject({ id: second.id });
      expect([statusOf(first.id), statusOf(second.id)]).toEqual(["active", "revoked"]);
    });

    it("refuses a too short prefix, an unknown prefix and an unknown key with one line, naming no key", () => {
      const before = cli.rows("api_keys");
      expect(expectOneLineError(cli.run("keys", "revoke", "wl_a"))).toBe('error: The prefix "wl_a" is too short: give at least 4 characters after wl_');
      expect(expectOneLineError(cli.run("keys", "revoke", "wl_zzzzzz"))).toMatch(/^error: No API key has the prefix wl_zzzzzz$/);
      const unknown = `wl_${"A".repeat(43)}`;
      const line = expectOneLineError(cli.run("keys", "revoke", unknown));
      expect(line).toBe("error: No API key matches the key given (was it created on another database?)");
      expect(cli.rows("api_keys")).toEqual(before);
    });
  });

  describe("keys create", () => {
    it("is audited with the actor cli: the key's id, name, prefix and roles, never the key", () => {
      const key = create("audited", "--role", "waitlist:admin", "--expires-in", "7d");
      const row = cli.rows("audit_log").find((entry) => entry.action === "key.create" && entry.target === key.id)!;
      expect(row).toMatchObject({ actor: "cli", actor_key_id: null });
      expect(row.summary).toMatch(new RegExp(`^created key "audited" ${key.key.slice(0, 9)}… \\(waitlist:admin; expires \\d{4}-`));
      expect(JSON.stringify(row)).not.toContain(key.key);
    });
  });

  describe("audit list", () => {
    interface Entries {
      entries: { id: number; at: string; actor: string; actor_key_id: string | null; action: string; target: string; summary: string }[];
    }

    it("lists rows newest first, filtered by action and actor, paged with --limit and --before", () => {
      const all = cli.json<Entries>("audit", "list", "--limit", "1000").entries;
      expect(all.length).toBeGreaterThan(5);
      expect(all.map((entry) => entry.id)).toEqual([...all.map((entry) => entry.id)].sort((a, b) => b - a));
      expect(all.every((entry) => entry.actor === "cli" && !Number.isNaN(Date.parse(entry.at)))).toBe(true);
      const revokes = cli.json<Entries>("audit", "list", "--action", "key.revoke").entries;
      expect(revokes.length).toBeGreaterThan(0);
      expect(revokes).toEqual(all.filter((entry) => entry.action === "key.revoke"));
      expect(cli.json<Entries>("audit", "list", "--actor", "cli", "--limit", "1000").entries).toEqual(all);
      expect(cli.json<Entries>("audit", "list", "--actor", "someone else").entries).toEqual([]);
      const page = cli.json<Entries>("audit", "list", "--limit", "2").entries;
      expect(page).toEqual(all.slice(0, 2));
      expect(cli.json<Entries>("audit", "list", "--limit", "2", "--before", String(page[1]!.id)).entries).toEqual(all.slice(2, 4));
    });

    it("prints a table, and refuses an unknown action or a bad limit with one line", () => {
      const human = cli.run("audit", "list", "--limit", "3");
      expect(human.status).toBe(0);
      expect(human.stdout.split("\n")[0]).toMatch(/^ID\s+AT\s+ACTOR\s+ACTION\s+TARGET\s+SUMMARY$/);
      expect(human.stdout.trimEnd().split("\n")).toHaveLength(4);
      expect(expectOneLineError(cli.run("audit", "list", "--action", "key.steal"))).toMatch(/^error: invalid --action: unknown action "key\.steal" \(known actions: waitlist\.create, /);
      expect(expectOneLineError(cli.run("audit", "list", "--limit", "0"))).toBe('error: invalid --limit: must be a whole number from 1 to 1000 (got "0")');
    });
  });
});

describe("keys create, list, revoke", () => {
  let cli: CliSandbox;
  beforeAll(() => (cli = cliSandbox()));
  afterAll(() => cli.remove());


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
      expect(expectOneLineError(cli.run("keys", "create", "--name", "x", "--role", "admin"))).toBe('error: invalid --role: unknown role "admin" (known roles: waitlist:view, waitlist:admin, waitlist:join, waitlist:redeem)');
      for (const duration of ["1y", "3651d"]) {
        expect(expectOneLineError(cli.run("keys", "create", "--name", "x", "--expires-in", duration))).toMatch(/^error: invalid --expires-in: /);
      }
      expect(cli.rows("api_keys")).toEqual(before);
      const revoke = cli.run("keys", "revoke", "00000000-0000-4000-8000-000000000000");
      expect(revoke.status).toBe(1);
      expect(expectOneLineError(revoke)).toBe('error: No API key has the id "00000000-0000-4000-8000-000000000000" (give an id, a prefix such as wl_AbC123 or the whole key)');
    });
  });
});
