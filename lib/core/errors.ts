/** Stable, machine-readable error codes shared by the API, the dashboard and the CLI. */
export const ERROR_STATUS = {
  unauthenticated: 401,
  forbidden: 403,
  invalid_parameter: 400,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  unprocessable: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The one error type of the app: everything else is an unexpected failure (a 500). */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** The offending input parameter, when there is one. */
    readonly parameter?: string,
  ) {
    super(message);
    this.name = "AppError";
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export function invalidParameter(parameter: string, message: string): AppError {
  return new AppError("invalid_parameter", message, parameter);
}
