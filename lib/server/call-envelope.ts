import { AppError, ERROR_STATUS, type ErrorCode } from "@/lib/core/errors";

// The one envelope of a call to a thread of the server, and of a write a cluster worker hands to the
// primary (./cluster-writers.ts): each call answered by one message. An error crosses as its name,
// message, code and parameter: an AppError comes back an AppError, a storage failure keeps its SQLite
// code, so each maps as on the caller's thread.

export interface Call {
  id: number;
  message: unknown;
  /** When set (ms since the epoch), the call is not run after it, nor waits inside SQLite past it: it is answered WAITED_TOO_LONG. */
  deadline?: number;
}

export type PostedError = { name: string; message: string; code?: unknown; parameter?: string };

export type Answer = { id: number; result: unknown } | { id: number; error: PostedError };

/** What the thread that ran a call says about it. */
export type Outcome = { result: unknown } | { error: unknown };

/** An error as it crosses to the caller's thread. */
export function postedError(error: unknown): PostedError {
  if (!(error instanceof Error)) return { name: "Error", message: String(error) };
  const { code, parameter } = error as { code?: unknown; parameter?: string };
  return { name: error.name, message: error.message, code, parameter };
}

export function toError(posted: PostedError): Error {
  if (typeof posted.code === "string" && posted.code in ERROR_STATUS) return new AppError(posted.code as ErrorCode, posted.message, posted.parameter);
  return Object.assign(new Error(posted.message), { name: posted.name }, posted.code === undefined ? {} : { code: posted.code });
}

export function answerOf(id: number, outcome: Outcome): Answer {
  return "error" in outcome ? { id, error: postedError(outcome.error) } : { id, result: outcome.result };
}

/**
 * The answer of a call whose deadline passed before the writer could take it: as a write the lock
 * kept out (SQLITE_BUSY), so every transport refuses it as such (a 503 whose one line says why,
 * lib/core/storage-failure.ts). Nothing of it was written.
 */
export const WAITED_TOO_LONG: PostedError = { name: "SqliteError", message: "the write waited past its deadline for the database's write lock", code: "SQLITE_BUSY" };

export const isPastDeadline = (call: Pick<Call, "deadline">, now = Date.now()) => call.deadline !== undefined && now >= call.deadline;
