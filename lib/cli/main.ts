import { CommanderError } from "commander";
import { ZodError } from "zod";
import { closeDb } from "@/db/client";
import { databaseFailureMessage } from "@/lib/core/database-failure";
import { env } from "@/lib/core/env";
import { storageFailureOf } from "@/lib/core/storage-failure";
import { databaseLocation } from "@/lib/domain/database";
import { AppError } from "@/lib/core/errors";
import { buildProgram } from "./program";

/** Exit codes: 0 success, 1 the command failed (bad input, not found, …), 2 usage error. */
const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

function describe(error: unknown): string {
  if (error instanceof AppError) return error.message;
  // SQLite's own words ("database is locked", "database disk image is malformed") name neither the
  // file, nor the cause, nor the cure: a damaged file, a full disk, a read-only file, a held lock.
  const databaseFailure = error instanceof Error && error.name === "SqliteError" ? databaseFailureMessage(error, env().DATABASE_PATH) : undefined;
  if (databaseFailure) return databaseFailure;
  // PostgreSQL's (a server out of reach, a standby, a full disk): the server named, without its password.
  const storageFailure = env().DATABASE_URL ? storageFailureOf(error) : undefined;
  if (storageFailure) return `${databaseLocation(env())}: ${storageFailure.message}`;
  if (error instanceof ZodError) return error.issues.map((issue) => `${issue.path.join(".") || "input"}: ${issue.message}`).join("; ");
  return error instanceof Error ? error.message : String(error);
}

buildProgram()
  .parseAsync()
  .catch((error: unknown) => {
    if (error instanceof CommanderError) {
      // Commander already printed its message (one line); help and --version are successes.
      process.exitCode = error.exitCode === 0 ? 0 : EXIT_USAGE;
      return;
    }
    // Expected and unexpected failures alike: one line, no stack trace (set DEBUG=1 for it).
    console.error(`error: ${describe(error).replace(/\s*\n\s*/g, " ")}`);
    if (process.env.DEBUG && error instanceof Error) console.error(error.stack);
    process.exitCode = EXIT_FAILED;
  })
  .finally(() => closeDb());
