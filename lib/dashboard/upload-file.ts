import { randomUUID } from "node:crypto";
import { lstatSync, readdirSync, rmSync } from "node:fs";
import { open, rm, type FileHandle } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Where an uploaded import file lives: a file under TMPDIR that loses its name the moment it is
// created. It is written and read through its descriptor only (the import's threads share it), and
// the system frees it when the last descriptor closes: when the import ends, or when the process
// does, however it ends (SIGTERM, SIGKILL, a crash, out of memory). So no upload, and none of the
// addresses in it, outlives its import where an erasure could not reach it.

const PREFIX = "waitlist-import-";

/** A new, nameless file for an upload, open for writing and reading; the caller closes it. */
export async function createUploadFile(): Promise<FileHandle> {
  const path = join(tmpdir(), `${PREFIX}${randomUUID()}`);
  const file = await open(path, "wx+", 0o600);
  try {
    // force: a start-up sweep of another server on the same TMPDIR may have removed it already.
    await rm(path, { force: true });
  } catch (error) {
    await file.close();
    throw error;
  }
  return file;
}

/**
 * Removes what uploads left under TMPDIR: the `waitlist-import-*` folders of earlier versions (which
 * kept the file by its name until the import ended, and forever when the server was killed), and a
 * file whose server died between creating and unlinking it. Only entries of this process's user;
 * called once the server listens, so one that fails to start touches nothing.
 */
export function removeLeftoverUploads(): void {
  const folder = tmpdir();
  let names: string[];
  try {
    names = readdirSync(folder).filter((name) => name.startsWith(PREFIX));
  } catch {
    return;
  }
  const uid = process.getuid?.();
  let removed = 0;
  for (const name of names) {
    const path = join(folder, name);
    try {
      if (uid !== undefined && lstatSync(path).uid !== uid) continue;
      rmSync(path, { recursive: true, force: true });
      removed++;
    } catch (error) {
      // Another worker of the same server may have removed it first.
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
      console.error(`could not remove ${path}, left by an import upload: ${(error as Error).message}`);
    }
  }
  if (removed > 0) console.error(`removed ${removed} import upload file${removed === 1 ? "" : "s"} left in ${folder} by a server that stopped during an import`);
}

/** What a failure to create or write the upload's file means, as a refusal for the admin, or undefined for anything else. */
export function uploadFileFailure(error: unknown): { message: string; logged: string } | undefined {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const folder = tmpdir();
  if (code === "ENOSPC" || code === "EDQUOT") {
    return {
      message: `The server's temporary folder (${folder}) is on a full disk: the file could not be received, and nothing was imported. Free some space there, or set TMPDIR to a folder with room for the file.`,
      logged: `import upload refused: the temporary folder's disk is full (${folder}, ${code})`,
    };
  }
  if (code === "EROFS" || code === "EACCES" || code === "EPERM" || code === "ENOENT" || code === "EIO") {
    return {
      message: `The server cannot write its temporary folder (${folder}): the file could not be received, and nothing was imported. Check TMPDIR and its permissions.`,
      logged: `import upload refused: the temporary folder cannot be written (${folder}, ${code})`,
    };
  }
  return undefined;
}
