import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, closeSync, mkdirSync, openSync, readdirSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";

// Real storage faults for tests: a read-only file or folder, and a full disk. Root ignores file
// permissions, so a root test runs the server or CLI under test as `nobody`, for whom they hold; any
// other user is bound by them already. A full disk is a small tmpfs filled to its last byte, which
// only root may mount (CI runs as root).

export const isRoot = process.getuid?.() === 0;

export interface TestUser {
  uid: number;
  gid: number;
}

/** The user to run a process as for permissions to bind it: `nobody` from root, else this user (undefined). */
export const unprivilegedUser: TestUser | undefined = isRoot ? { uid: 65534, gid: 65534 } : undefined;

/** Makes `path` (a file or folder) the unprivileged user's, with `mode`; its parent folders must let them through. */
export function handOver(path: string, mode: number): void {
  if (unprivilegedUser) chownSync(path, unprivilegedUser.uid, unprivilegedUser.gid);
  chmodSync(path, mode);
}

export interface SmallDisk {
  dir: string;
  /** Writes a filler file until the disk has no byte left. */
  fill(): void;
  /** Removes the filler. */
  free(): void;
  unmount(): void;
}

export const SMALL_DISK_NEEDS = "a full disk is a tmpfs, which only root may mount";

/** A tmpfs of `megabytes` mounted at `dir` (created). Throws when the mount is refused. */
export function mountSmallDisk(dir: string, megabytes: number): SmallDisk {
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${megabytes}m,mode=0777`, "tmpfs", dir], { stdio: "pipe" });
  } catch (error) {
    throw new Error(`could not mount a ${megabytes} MB tmpfs at ${dir} (${SMALL_DISK_NEEDS}): ${(error as { stderr?: Buffer }).stderr?.toString().trim() ?? error}`);
  }
  const filler = join(dir, "filler");
  return {
    dir,
    fill() {
      const fd = openSync(filler, "a");
      const chunk = Buffer.alloc(1 << 16, 1);
      try {
        for (const size of [chunk.length, 4096, 512, 1]) {
          try {
            for (;;) writeSync(fd, chunk, 0, size);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
          }
        }
      } finally {
        closeSync(fd);
      }
    },
    free() {
      rmSync(filler, { force: true });
    },
    unmount() {
      execFileSync("umount", ["-l", dir]);
      if (readdirSync(dir).length === 0) rmSync(dir, { recursive: true });
    },
  };
}
