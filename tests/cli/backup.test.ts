import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliSandbox, expectOneLineError, type CliSandbox } from "./run-cli";

let cli: CliSandbox;
beforeAll(() => (cli = cliSandbox()));
afterAll(() => cli.remove());

describe("db backup", () => {
  it("writes one self-contained, sound copy with the same rows, and reports what it holds", () => {
    const { id } = cli.json<{ id: string }>("waitlists", "create", "--name", "Backed up", "--website", "https://example.com");
    cli.json("signups", "import", "--waitlist", id, cli.file("s.csv", "email,verified\na@example.com,true\nb@example.com,false\n"));
    const destination = join(cli.dir, "copy.db");
    const result = cli.json<{ path: string; waitlists: number; signups: number; bytes: number }>("db", "backup", destination);
    expect(result).toMatchObject({ path: destination, waitlists: 1, signups: 2 });
    expect(result.bytes).toBeGreaterThan(0);
    // No -wal/-shm next to the copy, and no partial file left behind.
    expect(readdirSync(cli.dir).filter((name) => name.startsWith("copy.db"))).toEqual(["copy.db"]);
    const copy = new Database(destination, { readonly: true });
    try {
      expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
      expect(copy.prepare("SELECT email, verified FROM signups ORDER BY id").all()).toEqual(
        cli.rows("signups").map((row) => ({ email: row.email, verified: row.verified })),
      );
    } finally {
      copy.close();
    }
  });

  it("refuses to overwrite a file unless --force, and never replaces the database itself", () => {
    const destination = cli.file("existing.db", "keep me");
    expect(expectOneLineError(cli.run("db", "backup", destination))).toBe(`error: ${destination} exists; pass --force to replace it`);
    expect(cli.run("db", "backup", destination, "--force", "--json").status).toBe(0);
    const copy = new Database(destination, { readonly: true });
    expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
    copy.close();
    expect(expectOneLineError(cli.run("db", "backup", cli.databasePath, "--force"))).toBe("error: the backup cannot replace the database itself");
    expect(expectOneLineError(cli.run("db", "backup", join(cli.dir, "missing", "x.db")))).toMatch(/^error: no such folder: /);
    expect(existsSync(join(cli.dir, "missing"))).toBe(false);
  });
});
