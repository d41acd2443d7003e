import { AsyncLocalStorage } from "node:async_hooks";

/**
 * What the production server (lib/server) knows about the request being handled, shared with the
 * route handlers and pages it runs. Next.js may load this module once per route bundle and the
 * server loads its own copy, so the storage lives on globalThis under one well-known symbol.
 */
export interface RequestContext {
  requestId: string;
  /** The client's address, as lib/http/client-address resolved (proxy hops considered). */
  clientAddress: string;
  /** Set once the request is authenticated: the API key's id (never the key), for the log line. */
  keyId?: string;
}

const STORAGE = Symbol.for("waitlist-admin.request-context");
const holder = globalThis as typeof globalThis & { [STORAGE]?: AsyncLocalStorage<RequestContext> };

export function requestContextStorage(): AsyncLocalStorage<RequestContext> {
  holder[STORAGE] ??= new AsyncLocalStorage<RequestContext>();
  return holder[STORAGE];
}

/** The current request's context; undefined under `next dev`, or outside a request. */
export function requestContext(): RequestContext | undefined {
  return requestContextStorage().getStore();
}

/** Records who made the request, for the request log. */
export function setRequestKeyId(keyId: string) {
  const context = requestContext();
  if (context) context.keyId = keyId;
}
