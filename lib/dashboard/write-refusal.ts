import "server-only";
import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { storageFailureOf } from "@/lib/core/storage-failure";
import { firstIssueOf } from "@/lib/core/zod-issue";
import { logRefusedWrite } from "@/lib/http/refused-write";

// The dashboard's one mapping of a refused write to what it says: a status and one sentence, which
// a route answers as a plain-text page (./admin-post.ts) and a server action as its state's error
// (./admin-action.ts).

export const NOTHING_CHANGED = "Nothing was changed.";

/** A refused write: the status a route answers with, and the one line said. */
export interface WriteRefusal {
  status: number;
  message: string;
}

/** A message as a sentence: ends with one full stop. */
export function sentence(message: string): string {
  return /[.!?]$/.test(message) ? message : `${message}.`;
}

const andThen = (said: string, nothingDone: string) => (nothingDone === "" ? said : `${said} ${nothingDone}`);

/** Input the schema refused, as one sentence naming the field (`whole` when it concerns the input as a whole), then `nothingDone`. */
export function invalidInputMessage(error: z.ZodError, whole: string, nothingDone = NOTHING_CHANGED): string {
  const { where, message } = firstIssueOf(error);
  return andThen(sentence(`Invalid ${where ?? whole}: ${message}`), nothingDone);
}

/**
 * A refused write as the dashboard answers it, or undefined for any other error (a bug: rethrown):
 * input a form's schema refused (400 naming the field), an AppError below 500 (its status and
 * message), each followed by `nothingDone`; a write the database refused (a full disk, a read-only
 * file, a lock held past the wait: 503 saying why, logged in one line).
 */
export function writeRefusalOf(error: unknown, nothingDone = NOTHING_CHANGED): WriteRefusal | undefined {
  if (error instanceof z.ZodError) return { status: 400, message: invalidInputMessage(error, "form", nothingDone) };
  if (error instanceof AppError && error.status < 500) return { status: error.status, message: andThen(sentence(error.message), nothingDone) };
  const failure = storageFailureOf(error);
  if (!failure) return undefined;
  logRefusedWrite(failure);
  return { status: 503, message: sentence(failure.message.charAt(0).toUpperCase() + failure.message.slice(1)) };
}
