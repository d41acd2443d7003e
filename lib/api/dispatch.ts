import { API_ROUTES, type ApiPathTemplate } from "./route-table";
import { methodNotAllowed, notFound, optionsHandler } from "./methods";
import { baseHeaders, newRequestId } from "./headers";
import { withApiKey, type ApiHandler } from "./with-api-key";
import { env } from "@/lib/core/env";
import { corsHeaders } from "@/lib/http/cors";
import type { IncomingRequest } from "@/lib/http/incoming";

// The one way into /v1: the production server (lib/server/api-routes.ts) hands it every request
// under /v1, and under `next dev` the catch-all route app/v1/[[...path]]/route.ts does. Next.js's
// router never chooses a /v1 route: the path is matched here, once, against the route table.

/** `/waitlist/{id}` → /^\/v1\/waitlist\/([^/]+)$/ and the names of its parameters. */
function compile(template: ApiPathTemplate): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = template
    .split("/")
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(param[1]!);
      return "([^/]+)";
    })
    .join("/");
  return { pattern: new RegExp(`^/v1${source}$`), names };
}

type Handler = (request: IncomingRequest, params: Record<string, string>) => Response | Promise<Response>;

// One entry per template: a path may answer several methods (GET and POST /waitlist/{id}/signup).
const ROUTES = [...new Set(API_ROUTES.map((route) => route.template))].map((template) => {
  const routes = API_ROUTES.filter((route) => route.template === template);
  const handlers = new Map<string, Handler>();
  for (const { method, needsKey, role, handler } of routes) {
    handlers.set(method, withApiKey(handler as ApiHandler<Record<string, string>>, { public: !needsKey, role, write: method !== "GET" }));
  }
  const reads = handlers.has("GET");
  const writes = [...handlers.keys()].filter((method) => method !== "GET");
  // "GET, HEAD, OPTIONS", "POST, OPTIONS", "GET, HEAD, POST, OPTIONS" (./problem.ts's), or with a schedule's PATCH and DELETE.
  const allow = [...(reads ? ["GET", "HEAD"] : []), ...writes, "OPTIONS"].join(", ");
  const open = routes.some((route) => !route.needsKey);
  return { template, handlers, allow, ...compile(template), options: optionsHandler({ anyOrigin: open, allow }) };
});

/** A path segment as the handlers get it: percent-decoded, or as it is when it does not decode (a 400 from its parser, not a 500). */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export type ApiMatch =
  | { template: ApiPathTemplate; params: Record<string, string>; handlers: ReadonlyMap<string, Handler>; allow: string; options: Handler }
  | { redirect: string }
  | null;

/** What `path` (no query) is under /v1: a route with its parameters, a redirect to its canonical spelling, or nothing (404). */
export function matchApiPath(path: string): ApiMatch {
  // A trailing slash or a doubled one: a 308 to the path without it, as Next.js does for pages.
  const canonical = path.replace(/\/{2,}/g, "/").replace(/(.)\/$/, "$1");
  if (canonical !== path) return { redirect: canonical };
  for (const { template, pattern, names, handlers, allow, options } of ROUTES) {
    const match = pattern.exec(path);
    if (match) return { template, params: Object.fromEntries(names.map((name, index) => [name, decoded(match[index + 1]!)])), handlers, allow, options };
  }
  return null;
}

function redirect(request: IncomingRequest, location: string): Response {
  // baseHeaders: Cache-Control no-store.
  const headers = { ...baseHeaders(newRequestId()), Location: location, "Content-Type": "text/plain; charset=utf-8", ...corsHeaders(env().CORS_ORIGINS, request.headers.get("origin")) };
  return new Response(location, { status: 308, headers });
}

/** The answer to any request under /v1 (`request.url` absolute; only its path and query are read). */
export function dispatchApi(request: IncomingRequest): Response | Promise<Response> {
  const { url } = request;
  const target = url.slice(url.indexOf("/", url.indexOf("//") + 2));
  const queryStart = target.indexOf("?");
  const path = queryStart === -1 ? target : target.slice(0, queryStart);
  const found = matchApiPath(path);
  if (!found) return notFound(request, path);
  if ("redirect" in found) return redirect(request, found.redirect + (queryStart === -1 ? "" : target.slice(queryStart)));
  const handle = found.handlers.get(request.method === "HEAD" ? "GET" : request.method);
  if (handle) return handle(request, found.params);
  if (request.method === "OPTIONS") return found.options(request, found.params);
  return methodNotAllowed(request, found.allow);
}
