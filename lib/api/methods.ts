import { AppError } from "@/lib/core/errors";
import { env } from "@/lib/core/env";
import { corsHeaders, isPreflight, preflightHeaders } from "@/lib/http/cors";
import { baseHeaders, newRequestId } from "./headers";
import { ALLOWED_METHODS, toProblemResponse } from "./problem";
import { finishResponse, type Access } from "./with-api-key";

// Every /v1 route exports these next to GET/HEAD, so Next.js never answers with its own bodiless 405.

/** OPTIONS of a route: 204 with Allow, and a CORS preflight's answer when it is one (without a key: browsers send none). */
export function optionsHandler(access: Access = {}) {
  return (request: Request): Response => {
    const policy = env().CORS_ORIGINS;
    const origin = request.headers.get("origin");
    const cors = isPreflight(request.method, request.headers) ? preflightHeaders(policy, origin, access) : corsHeaders(policy, origin, access);
    return new Response(null, { status: 204, headers: { ...baseHeaders(newRequestId()), Allow: ALLOWED_METHODS, ...cors } });
  };
}

function methodNotAllowed(request: Request): Response {
  const requestId = newRequestId();
  const error = new AppError("method_not_allowed", `${request.method} is not allowed here: this API is read-only (allowed: ${ALLOWED_METHODS}).`);
  return finishResponse(request, toProblemResponse(error, requestId), requestId);
}

export const POST = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;

/** Any method on a path outside the API: 404 problem+json (a HEAD gets the headers only). */
export function notFound(request: Request): Response {
  const requestId = newRequestId();
  const { pathname } = new URL(request.url);
  const error = new AppError("not_found", `There is no API resource at ${pathname}. See /v1/openapi.json.`);
  return finishResponse(request, toProblemResponse(error, requestId), requestId);
}
