import type { IncomingHttpHeaders } from "node:http";

// What the /v1 handlers read of a request. A Web Request has all of it; the production server's fast
// path (lib/server/api-routes.ts) hands over a plain object over the Node request instead: building a
// Request (its Headers, its parsed URL, its AbortSignal) cost 14 % of a small /v1 request's CPU.

/** A request's headers: `get` returns the value (repeated headers joined by ", ") or null. */
export type HeaderReader = Pick<Headers, "get">;

export interface IncomingRequest {
  method: string;
  /** Absolute; only its path and query are the client's (see requestOrigin for the rest). */
  url: string;
  headers: HeaderReader;
  /** The body as text (a Web Request's own; the production server reads the Node request, up to MAX_API_BODY_BYTES). */
  text?(): Promise<string>;
}

/** The largest body a /v1 write reads (1,000 addresses of 320 characters fit with room to spare). */
export const MAX_API_BODY_BYTES = 1024 * 1024;

/** A Node request's headers as a HeaderReader, without building a Headers object. */
export function nodeHeaderReader(headers: IncomingHttpHeaders): HeaderReader {
  return {
    get(name) {
      const value = headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
    },
  };
}
