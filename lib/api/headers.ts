import { randomUUID } from "node:crypto";
import { requestContext } from "@/lib/http/request-context";

export const REQUEST_ID_HEADER = "Request-Id";

/** The id the server assigned to this request (so the header and the log line agree), or a fresh one. */
export function newRequestId(): string {
  return requestContext()?.requestId ?? randomUUID();
}

/** Headers on every /v1 response. */
export function baseHeaders(requestId: string): Record<string, string> {
  return { "Cache-Control": "no-store", [REQUEST_ID_HEADER]: requestId };
}
