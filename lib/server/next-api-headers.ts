import type { IncomingMessage, ServerResponse } from "node:http";
import { env } from "@/lib/core/env";
import { corsHeaders } from "@/lib/http/cors";
import { onHeaders } from "@/lib/http/on-headers";

// The /v1 requests the fast path leaves to Next.js (other methods, unknown paths, a trailing slash:
// see lib/api/route-table.ts) get their API headers from the route handlers, plus some of
// Next.js's own that mean nothing for the API. They come off here, and its trailing-slash redirect
// gets the headers every /v1 response has.

/** Next.js varies every route handler's response on its router headers; no /v1 response depends on them. */
const NEXT_VARY_TOKENS = new Set(["rsc", "next-router-state-tree", "next-router-prefetch", "next-router-segment-prefetch", "next-url"]);

export function cleanNextApiHeaders(request: IncomingMessage, response: ServerResponse): void {
  onHeaders(response, () => {
    const vary = response.getHeader("Vary");
    if (vary !== undefined) {
      const kept = (Array.isArray(vary) ? vary.join(",") : String(vary))
        .split(",")
        .map((token) => token.trim())
        .filter((token) => token && !NEXT_VARY_TOKENS.has(token.toLowerCase()));
      if (kept.length > 0) response.setHeader("Vary", [...new Set(kept)].join(", "));
      else response.removeHeader("Vary");
    }
    const { statusCode } = response;
    if (statusCode < 300 || statusCode >= 400) return;
    // Next.js's trailing-slash redirect: a Location, a body holding the target path, and a Refresh
    // header for old browsers. Clients of a JSON API follow Location; say what the body is and that
    // it is not to be stored, and let a browser app on an allowed origin follow it.
    response.removeHeader("Refresh");
    response.setHeader("Content-Type", "text/plain; charset=utf-8");
    response.setHeader("Cache-Control", "no-store");
    for (const [name, value] of Object.entries(corsHeaders(env().CORS_ORIGINS, request.headers.origin))) {
      if (name === "Vary") response.appendHeader("Vary", value);
      else response.setHeader(name, value);
    }
  });
}
