import { randomUUID } from "node:crypto";

export const REQUEST_ID_HEADER = "Request-Id";

export function newRequestId(): string {
  return randomUUID();
}

/** Headers on every /v1 response. */
export function baseHeaders(requestId: string): Record<string, string> {
  return { "Cache-Control": "no-store", [REQUEST_ID_HEADER]: requestId };
}
