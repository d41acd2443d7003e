import { AppError } from "@/lib/core/errors";
import { env } from "@/lib/core/env";
import { corsHeaders, isPreflight, preflightHeaders } from "@/lib/http/cors";
import { baseHeaders, newRequestId } from "./headers";
import { ALLOWED_METHODS, toProblemResponse } from "./problem";
import { finishResponse, type Access } from "./with-api-key";
import type { IncomingRequest } from "@/lib/http/incoming";

// The answers of /v1 to everything but GET and HEAD of a route (./dispatch.ts).

/** OPTIONS of a route: 204 with Allow, and a CORS preflight's answer when it is one (without a key: browsers send none). */
export function optionsHandler(access: Access & { allow?: string } = {}) {
  return (request: IncomingRequest): Response => {
    const policy = env().CORS_ORIGINS;
    const origin = request.headers.get("origin");
    const cors = isPreflight(request.method, request.headers) ? preflightHeaders(policy, origin, access) : corsHeaders(policy, origin, access);
    return new Response(null, { status: 204, headers: { ...baseHeaders(newRequestId()), Allow: access.allow ?? ALLOWED_METHODS, ...cors } });
  };
}

/** Any method a route does not answer: 405 problem+json with its Allow. */
export function methodNotAllowed(request: IncomingRequest, allow = ALLOWED_METHODS): Response {
  const requestId = newRequestId();
  const error = new AppError("method_not_allowed", `${request.method} is not allowed here (allowed: ${allow}).`);
  return finishResponse(request, toProblemResponse(error, requestId), requestId, { Allow: allow });
}

/** Any method on a path outside the API: 404 problem+json (a HEAD gets the headers only). */
export function notFound(request: IncomingRequest, pathname: string): Response {
  const requestId = newRequestId();
  const error = new AppError("not_found", `There is no API resource at ${pathname}. See /v1/openapi.json.`);
  return finishResponse(request, toProblemResponse(error, requestId), requestId);
}
