import { readFileSync, statSync } from "node:fs";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it, vi } from "vitest";
import { checkpointsLeftToLitestream, replicaUrlForDisplay } from "@/lib/core/continuous-backup";
import { WAL_SIZE_LIMIT_BYTES } from "@/db/client";
import { leaveCheckpointsToCheckpointer } from "@/lib/sqlite/background-checkpoint";
import { checkpointAfterDeleting } from "@/lib/sqlite/checkpoint";
import { erasedDataStillOnDisk } from "@/lib/domain/signups/erase";
import { tempDatabase } from "@/tests/support/temp-db";

// With continuous backup configured, Litestream owns the checkpoints: no connection of the app's
// checkpoints on its own (db/client.ts), the writers' backstop included (lib/sqlite/background-checkpoint.ts),
// none cuts the WAL back, and an erasure leaves the WAL to Litestream (lib/sqlite/checkpoint.ts).

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("checkpointsLeftToLitestream", () => {
  it("is on while LITESTREAM_REPLICA_URL or LITESTREAM_CONFIG is set and not empty", () => {
    expect(checkpointsLeftToLitestream({})).toBe(false);
    expect(checkpointsLeftToLitestream({ LITESTREAM_REPLICA_URL: " ", LITESTREAM_CONFIG: "" })).toBe(false);
    expect(checkpointsLeftToLitestream({ LITESTREAM_REPLICA_URL: "file:///var/backups/waitlist" })).toBe(true);
    expect(checkpointsLeftToLitestream({ LITESTREAM_CONFIG: "/etc/litestream.yml" })).toBe(true);
  });

  it("turns every connection's automatic checkpoint off, the writers' too; SQLite's 1,000 pages and the writers' backstop otherwise", () => {
    const pagesOf = (configured: boolean) => {
      vi.stubEnv("LITESTREAM_REPLICA_URL", configured ? "file:///var/backups/waitlist" : "");
      const temp = tempDatabase();
      try {
        const opened = temp.db.$client.pragma("wal_autocheckpoint", { simple: true });
        leaveCheckpointsToCheckpointer(temp.db);
        return [opened, temp.db.$client.pragma("wal_autocheckpoint", { simple: true })];
      } finally {
        temp.close();
      }
    };
    expect(pagesOf(true)).toEqual([0, 0]);
    expect(pagesOf(false)).toEqual([1000, 10_000]);
  });

  it("a restart of the WAL after Litestream's checkpoint keeps the frames Litestream has not copied yet; the app's own limit cuts them otherwise", () => {
    // Litestream's steps (0.3.13 db.checkpoint): copy the WAL, let go of its read transaction, checkpoint.
    // A join committed between its copy and its checkpoint is then only in the WAL's frames past the copy,
    // which Litestream copies next unless the app's next commit, which restarts the WAL, has cut them off.
    const framesPastTheCopy = (configured: boolean) => {
      vi.stubEnv("LITESTREAM_REPLICA_URL", configured ? "file:///var/backups/waitlist" : "");
      const temp = tempDatabase();
      const litestream = new Database(temp.path);
      try {
        const app = temp.db.$client;
        const wal = `${temp.path}-wal`;
        litestream.exec("BEGIN");
        litestream.prepare("SELECT count(*) FROM sqlite_master").get();
        const pages = Math.ceil((1.25 * WAL_SIZE_LIMIT_BYTES) / 4096);
        app.exec(`CREATE TABLE ballast (b BLOB); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${pages}) INSERT INTO ballast SELECT randomblob(3900) FROM n`);
        const copied = statSync(wal).size;
        app.exec("INSERT INTO ballast VALUES ('joined between the copy and the checkpoint')");
        const committed = statSync(wal).size;
        const past = readFileSync(wal).subarray(copied, committed);
        litestream.exec("COMMIT");
        litestream.pragma("wal_checkpoint(PASSIVE)");
        app.exec("INSERT INTO ballast VALUES ('the next join: the WAL starts over')");
        return readFileSync(wal).subarray(copied, committed).equals(past) && past.length > 0;
      } finally {
        litestream.close();
        temp.close();
      }
    };
    expect(framesPastTheCopy(true)).toBe(true);
    expect(framesPastTheCopy(false)).toBe(false);
  });

  it("an erasure's checkpoint leaves the WAL as it is, to Litestream's own checkpoints", async () => {
    const walFramesAfterErasure = async (configured: boolean) => {
      vi.stubEnv("LITESTREAM_REPLICA_URL", configured ? "file:///var/backups/waitlist" : "");
      const temp = tempDatabase();
      try {
        temp.db.$client.exec("CREATE TABLE erased (note TEXT); INSERT INTO erased VALUES ('ada@example.com'); DELETE FROM erased");
        const emptied = await checkpointAfterDeleting(temp.db);
        const [wal] = temp.db.$client.pragma("wal_checkpoint(PASSIVE)") as { log: number }[];
        return [emptied, wal!.log > 0];
      } finally {
        temp.close();
      }
    };
    expect(await walFramesAfterErasure(true)).toEqual([false, true]);
    expect(await walFramesAfterErasure(false)).toEqual([true, false]);
  });

  it("says after an erasure that the erased data waits for Litestream, not for a reader, while it owns the checkpoints", () => {
    vi.stubEnv("LITESTREAM_REPLICA_URL", "file:///var/backups/waitlist");
    expect(erasedDataStillOnDisk()).toMatch(/^Continuous backup is on, so only Litestream empties .* in the backup until Litestream's retention removes it\.$/);
    vi.stubEnv("LITESTREAM_REPLICA_URL", "");
    expect(erasedDataStillOnDisk()).toMatch(/^A long read .* it is removed then, automatically\.$/);
  });
});

describe("replicaUrlForDisplay", () => {
  it("drops a user name and password written in the URL, and leaves the rest as written", () => {
    expect(replicaUrlForDisplay("s3://AKIAKEY:s3cret@launch-backups/waitlist")).toBe("s3://launch-backups/waitlist");
    expect(replicaUrlForDisplay("file:///var/backups/waitlist")).toBe("file:///var/backups/waitlist");
    expect(replicaUrlForDisplay("sftp://backup@host.example/waitlist")).toBe("sftp://host.example/waitlist");
  });
});
