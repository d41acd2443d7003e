import { AsyncLocalStorage } from "node:async_hooks";
import { processSingleton } from "@/lib/core/process-slots";

/**
 * What the production server (lib/server) knows about the request being handled, shared with the
 * route handlers and pages it runs. Next.js may load this module once per route bundle and the
 * server loads its own copy, so the storage is one per process (lib/core/process-slots.ts).
 */
export interface RequestContext {
  requestId: string;
  /** The client's address, as lib/http/client-address resolved (proxy hops considered). */
  clientAddress: string;
  /** Set once the request is authenticated: the API key's id (never the key), for the log line. */
  keyId?: string;
}

export const requestContextStorage = processSingleton("request context", () => new AsyncLocalStorage<RequestContext>());

/** The current request's context; undefined under `next dev`, or outside a request. */
export function requestContext(): RequestContext | undefined {
  return requestContextStorage().getStore();
}

/** Records who made the request, for the request log. */
export function setRequestKeyId(keyId: string) {
  const context = requestContext();
  if (context) context.keyId = keyId;
}
