import type { StorageFailure } from "@/lib/core/storage-failure";
import { requestContext } from "./request-context";

/** The one log line of a write the database refused (lib/core/storage-failure.ts), with the request's id: never a stack trace. */
export function logRefusedWrite(failure: StorageFailure, requestId = requestContext()?.requestId ?? "-"): void {
  console.error(`[request ${requestId}] write refused: ${failure.message}`);
}
