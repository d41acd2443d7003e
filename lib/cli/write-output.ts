import { createWriteStream, renameSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { AppError } from "@/lib/core/errors";

/** Where an output file is written until it is complete: beside it, so that the rename is atomic. */
function partialPath(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.partial`);
}

/** Fails before anything is produced when `path` cannot be an output file. */
export function checkOutputPath(path: string): void {
  const folder = dirname(resolve(path));
  let isFolder = false;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch {
    // reported below
  }
  if (!isFolder) throw new AppError("invalid_parameter", `cannot write ${path}: the folder ${folder} does not exist`, "output");
  try {
    if (statSync(path).isDirectory()) throw new AppError("invalid_parameter", `cannot write ${path}: it is a folder`, "output");
  } catch (error) {
    if (error instanceof AppError) throw error;
  }
}

/**
 * Writes texts to stdout, or to `path` through a partial file renamed into place once complete, so
 * that a failed or interrupted export leaves no file (and an existing one untouched). Chunks are
 * pulled only as the destination takes them (backpressure), at most one ahead, so memory stays flat.
 */
export async function writeOutput(chunks: Iterable<string> | AsyncIterable<string>, path?: string): Promise<void> {
  if (path === undefined) {
    try {
      await pipeline(Readable.from(chunks, { highWaterMark: 1 }), process.stdout, { end: false });
    } catch (error) {
      // The reader went away (`| head`): nothing more to write, and nothing went wrong here.
      if ((error as NodeJS.ErrnoException).code !== "EPIPE") throw error;
    }
    return;
  }
  const partial = partialPath(path);
  const removePartial = () => rmSync(partial, { force: true });
  const onSignal = (signal: NodeJS.Signals) => {
    removePartial();
    process.kill(process.pid, signal);
  };
  process.once("SIGINT", onSignal).once("SIGTERM", onSignal);
  try {
    await pipeline(Readable.from(chunks, { highWaterMark: 1 }), createWriteStream(partial, { flags: "wx" }));
    renameSync(partial, path);
  } catch (error) {
    removePartial();
    // A system call's failure is the file's (a full disk, no permission); anything else stays as it is.
    if (!(error as NodeJS.ErrnoException).syscall) throw error;
    throw new AppError("invalid_parameter", `cannot write ${path}: ${(error as Error).message}`, "output");
  } finally {
    process.off("SIGINT", onSignal).off("SIGTERM", onSignal);
  }
}
