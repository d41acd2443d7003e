import type { IncomingMessage, ServerResponse } from "node:http";
import { nodeHeaderReader } from "@/lib/http/incoming";
import { crossSiteRefusal, crossSiteRefusalMessage } from "@/lib/http/same-origin";
import { isValidRouterState } from "./router-state";

// Requests Next.js would answer with a 500 although the client is at fault, refused here instead:
// (/v1 never gets here: lib/api/dispatch.ts answers all of it.)
// - methods other than the ones the app knows: Next.js builds a WHATWG Request for each request,
//   which throws on TRACE, TRACK and CONNECT (405);
// - a write (POST, PUT, PATCH, DELETE) outside /v1 from another site, or from no site (`Origin: null`,
//   neither Origin nor Sec-Fetch-Site): Next.js answers a server action (a POST to a page, with a
//   Next-Action header or a form body) from another origin with a 500 and logs "Invalid Server
//   Actions request". Every write outside /v1 is the dashboard's (its server actions and form routes)
//   or the join page's (posted from its own origin, inside an embed's iframe too), so all are refused
//   by the same rule (crossSiteRefusal), with the 403 and plain text of a dashboard write route
//   (lib/dashboard/admin-post.ts, which still checks for itself under `next dev`);
// - a Next-Router-State-Tree header (sent by the client-side router) that does not parse: Next.js
//   throws while rendering the page (400; ./router-state.ts).

const HANDLED_METHODS = new Set(["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"]);
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Answers the request when it must be refused; false when Next.js can handle it. */
export function refuseUnhandledRequest(request: IncomingMessage, response: ServerResponse): boolean {
  if (!HANDLED_METHODS.has(request.method ?? "")) {
    response.statusCode = 405;
    response.setHeader("Allow", "GET, HEAD, POST, OPTIONS");
    response.setHeader("Content-Type", "text/plain; charset=utf-8");
    response.end("Method Not Allowed\n");
    return true;
  }
  if (!SAFE_METHODS.has(request.method!)) {
    const refusal = crossSiteRefusal(nodeHeaderReader(request.headers));
    if (refusal) {
      response.statusCode = 403;
      response.setHeader("Content-Type", "text/plain; charset=utf-8");
      response.setHeader("Cache-Control", "no-store");
      response.end(`${crossSiteRefusalMessage(refusal)}\n`);
      return true;
    }
  }
  if (!isValidRouterState(request.headers["next-router-state-tree"])) {
    response.statusCode = 400;
    response.setHeader("Content-Type", "text/plain; charset=utf-8");
    response.end("Bad Request: malformed Next-Router-State-Tree header\n");
    return true;
  }
  return false;
}

/**
 * A path with a malformed percent-encoding (`/waitlists/%FF`) gets every "%" escaped, so it reaches
 * the routes as literal text (a 404) instead of Next.js failing to decode it (a 500).
 */
export function escapeMalformedPath(request: IncomingMessage) {
  const target = request.url ?? "/";
  if (!target.includes("%")) return;
  const question = target.indexOf("?");
  const path = question === -1 ? target : target.slice(0, question);
  try {
    decodeURIComponent(path);
  } catch {
    request.url = path.replaceAll("%", "%25") + (question === -1 ? "" : target.slice(question));
  }
}
