import { AppError, ERROR_STATUS, type ErrorCode } from "@/lib/core/errors";
import { storageFailureOf } from "@/lib/core/storage-failure";
import { logRefusedWrite } from "@/lib/http/refused-write";
import { baseHeaders } from "./headers";
import { BufferedResponse } from "./buffered-response";

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

/** One short, fixed title per error code (RFC 9457 `title`). */
export const ERROR_TITLES: Record<ErrorCode, string> = {
  unauthenticated: "Unauthenticated",
  forbidden: "Forbidden",
  invalid_parameter: "Invalid parameter",
  not_found: "Not found",
  method_not_allowed: "Method not allowed",
  conflict: "Conflict",
  unprocessable: "Unprocessable request",
  rate_limited: "Too many requests",
  internal: "Internal server error",
  unavailable: "Service unavailable",
};

/** The problem `type` of a code: a link to its entry in the API reference. */
export function problemType(code: ErrorCode): string {
  return `/docs/api#error-${code}`;
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  request_id: string;
  parameter?: string;
}

/**
 * The one mapper from an error to an RFC 9457 body. A write the database refused (full disk, read-only,
 * locked) is a 503 saying why, logged in one line; anything else that is not an AppError is a 500
 * with no internals.
 */
export function toProblem(error: unknown, requestId: string): Problem {
  const storageFailure = storageFailureOf(error);
  if (storageFailure) {
    logRefusedWrite(storageFailure, requestId);
    return toProblem(new AppError("unavailable", storageFailure.message), requestId);
  }
  if (!(error instanceof AppError)) {
    console.error(`[request ${requestId}] unexpected error`, error);
    return toProblem(new AppError("internal", "Something went wrong on our side. Quote the request id when reporting it."), requestId);
  }
  return {
    type: problemType(error.code),
    title: ERROR_TITLES[error.code],
    status: ERROR_STATUS[error.code],
    detail: error.message,
    code: error.code,
    request_id: requestId,
    ...(error.parameter !== undefined && { parameter: error.parameter }),
  };
}

/** Headers that belong to a status, whatever the route. */
function problemHeaders(code: ErrorCode): Record<string, string> {
  if (code === "unauthenticated") return { "WWW-Authenticate": 'Bearer realm="waitlist"' };
  if (code === "method_not_allowed") return { Allow: ALLOWED_METHODS };
  return {};
}

export const ALLOWED_METHODS = "GET, HEAD, OPTIONS";
/** The Allow header of the status actions (POST /v1/waitlist/{id}/signup/invite, …). */
export const WRITE_ALLOWED_METHODS = "POST, OPTIONS";
/** The Allow header of a path that is read and written (GET and POST /v1/waitlist/{id}/signup). */
export const READ_WRITE_ALLOWED_METHODS = "GET, HEAD, POST, OPTIONS";

export function toProblemResponse(error: unknown, requestId: string): Response {
  const problem = toProblem(error, requestId);
  const text = JSON.stringify(problem);
  return new BufferedResponse(text, {
    status: problem.status,
    headers: { ...baseHeaders(requestId), "Content-Type": PROBLEM_CONTENT_TYPE, "Content-Length": String(Buffer.byteLength(text)), ...problemHeaders(problem.code) },
  });
}
