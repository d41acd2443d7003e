import { afterEach, describe, expect, it, vi } from "vitest";
import { checkpointsLeftToLitestream, replicaUrlForDisplay } from "@/lib/core/continuous-backup";
import { leaveCheckpointsToCheckpointer } from "@/lib/sqlite/background-checkpoint";
import { tempDatabase } from "@/tests/support/temp-db";

// With continuous backup configured, Litestream owns the checkpoints: no connection of the app's
// checkpoints on its own (db/client.ts), the writers' backstop included (lib/sqlite/background-checkpoint.ts).

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
});

describe("replicaUrlForDisplay", () => {
  it("drops a user name and password written in the URL, and leaves the rest as written", () => {
    expect(replicaUrlForDisplay("s3://AKIAKEY:s3cret@launch-backups/waitlist")).toBe("s3://launch-backups/waitlist");
    expect(replicaUrlForDisplay("file:///var/backups/waitlist")).toBe("file:///var/backups/waitlist");
    expect(replicaUrlForDisplay("sftp://backup@host.example/waitlist")).toBe("sftp://host.example/waitlist");
  });
});
