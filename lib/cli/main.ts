import { CommanderError } from "commander";
import { ZodError } from "zod";
import { BUSY_TIMEOUT_MS } from "@/db/client";
import { AppError } from "@/lib/core/errors";
import { isBusy } from "@/lib/sqlite/busy";
import { buildProgram } from "./program";

/** Exit codes: 0 success, 1 the command failed (bad input, not found, …), 2 usage error. */
const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

// SQLite's own words ("database is locked") do not say that waiting is the cure.
const BUSY = `the database is busy: another process (an import, a backup?) held its write lock for longer than ${BUSY_TIMEOUT_MS / 1000} s; nothing was written, try again when it has finished`;

function describe(error: unknown): string {
  if (error instanceof AppError) return error.message;
  if (error !== null && typeof error === "object" && isBusy(error)) return BUSY;
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
  });
