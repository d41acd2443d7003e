import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { litestreamBinary } from "@/lib/sqlite/litestream";
import { cliSandbox, expectOneLineError, type CliSandbox } from "../run-cli";

// `db restore`: the database rebuilt from a Litestream replica into a new file (lib/sqlite/restore.ts).
// The replica here is written by `litestream replicate` on the CLI's database; the server's own
// replication, killed mid-stream, is tests/e2e/server/continuous-backup.spec.ts.

describe("db restore", () => {
  let cli: CliSandbox;
  let replicaUrl: string;

  beforeAll(async () => {
    cli = cliSandbox();
    const { id } = cli.json<{ id: string }>("waitlists", "create", "--name", "Replicated", "--website", "https://example.com");
    cli.json("signups", "import", "--waitlist", id, cli.file("s.csv", "email,verified\na@example.com,true\nb@example.com,false\nc@example.com,true\n"));
    const replica = join(cli.dir, "replica");
    replicaUrl = pathToFileURL(replica).href;
    const litestream = spawn(litestreamBinary(), ["replicate", cli.databasePath, replicaUrl], { stdio: "ignore" });
    // Until its first snapshot and WAL segment are in the replica, then a stop (which copies the rest).
    const generations = join(replica, "generations");
    const segments = () => (existsSync(generations) ? readdirSync(generations).flatMap((generation) => (existsSync(join(generations, generation, "wal")) ? readdirSync(join(generations, generation, "wal")) : [])) : []);
    for (let waited = 0; segments().length === 0; waited += 100) {
      if (waited > 20_000) throw new Error("litestream wrote no WAL segment in 20 s");
      await sleep(100);
    }
    litestream.kill("SIGTERM");
    await once(litestream, "exit");
  });
  afterAll(() => cli.remove());

  it("rebuilds a sound file with every row into a new file, and says what it holds and that the key is not in it", () => {
    const restored = join(cli.dir, "restored", "waitlist.db");
    const result = cli.run("db", "restore", "--from", replicaUrl, "--to", restored);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^Restored ${restored} from ${replicaUrl} \\(1 waitlists, 3 signups, \\d+ bytes\\) in [0-9.]+s\\.\\n`));
    expect(result.stdout).toContain("their key is not in it");
    // No partial or temporary file of Litestream's left beside it.
    expect(readdirSync(join(cli.dir, "restored"))).toEqual(["waitlist.db"]);
    const copy = new Database(restored, { readonly: true });
    try {
      expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
      expect(copy.prepare("SELECT email, verified FROM signups ORDER BY id").all()).toEqual(cli.rows("signups").map((row) => ({ email: row.email, verified: row.verified })));
    } finally {
      copy.close();
    }
  });

  it("takes the replica from LITESTREAM_REPLICA_URL, and never replaces an existing file (the database itself by default)", () => {
    const into = join(cli.dir, "from-env.db");
    expect(cli.runWithEnv({ LITESTREAM_REPLICA_URL: replicaUrl }, "db", "restore", "--to", into, "--json").status).toBe(0);
    expect(expectOneLineError(cli.runWithEnv({ LITESTREAM_REPLICA_URL: replicaUrl }, "db", "restore", "--to", into))).toMatch(/from-env\.db exists: a restore never replaces a database/);
    expect(expectOneLineError(cli.runWithEnv({ LITESTREAM_REPLICA_URL: replicaUrl }, "db", "restore"))).toContain(`${cli.databasePath} exists`);
  });

  it("says so when the replica holds no backup, without --from or with a bad --at, and writes nothing", () => {
    const empty = join(cli.dir, "empty-replica");
    mkdirSync(empty);
    const into = join(cli.dir, "nothing.db");
    expect(expectOneLineError(cli.run("db", "restore", "--from", pathToFileURL(empty).href, "--to", into))).toMatch(/no backup found in file:\/\/.*empty-replica; nothing was written/);
    expect(expectOneLineError(cli.runWithEnv({ LITESTREAM_REPLICA_URL: "" }, "db", "restore", "--to", into))).toMatch(/give --from <replica-url>/);
    expect(expectOneLineError(cli.run("db", "restore", "--from", replicaUrl, "--to", into, "--at", "yesterday"))).toMatch(/--at "yesterday" is not a time/);
    expect(readdirSync(cli.dir).filter((name) => name.startsWith("nothing.db") || name.includes(".partial"))).toEqual([]);
  });
});
