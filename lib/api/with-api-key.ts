import { admitApiRequest } from "./auth";
import { AppError } from "@/lib/core/errors";
import type { ApiKey, Role } from "@/lib/domain/keys/queries";
import { crossOriginApiRefusal } from "@/lib/http/same-origin";
import { BufferedResponse } from "./buffered-response";
import { baseHeaders, newRequestId } from "./headers";
import { toProblemResponse } from "./problem";
import { env } from "@/lib/core/env";
import { corsHeaders } from "@/lib/http/cors";
import type { IncomingRequest } from "@/lib/http/incoming";
import { requestOrigin } from "@/lib/http/origin";

export interface ApiRequest<Params> {
  request: IncomingRequest;
  /** The request's query parameters. */
  query: URLSearchParams;
  /** The URL the client used: its path and query on requestOrigin (lib/http/origin.ts), for the Link header; built on first use. */
  readonly url: URL;
  params: Params;
  requestId: string;
  /** The admitted key (undefined on a public route). */
  key: ApiKey | undefined;
}

/** A /v1 handler: what it answers once the request is admitted (see withApiKey). */
export type ApiHandler<Params> = (input: ApiRequest<Params>) => Response | Promise<Response>;

export interface Access {
  /** A public resource (openapi.json): readable from any origin, whatever CORS_ORIGINS says. */
  anyOrigin?: boolean;
}

/**
 * Adds the headers every /v1 response carries (Request-Id, Cache-Control unless the handler chose
 * one, CORS); HEAD gets the same status and headers, never a body.
 */
export function finishResponse(request: IncomingRequest, response: Response, requestId: string, extraHeaders: Record<string, string> = {}, access: Access = {}): Response {
  const headers = response instanceof BufferedResponse ? response.editableHeaders : response.headers;
  const base = baseHeaders(requestId);
  for (const name in base) if (name !== "Cache-Control" || !headers.has(name)) headers.set(name, base[name]!);
  for (const name in extraHeaders) headers.set(name, extraHeaders[name]!);
  const cors = corsHeaders(env().CORS_ORIGINS, request.headers.get("origin"), access);
  for (const name in cors) headers.append(name, cors[name]!);
  if (request.method !== "HEAD") return response;
  if (!(response instanceof BufferedResponse)) void response.body?.cancel();
  return new Response(null, { status: response.status, headers: response.headers });
}

// Next.js rebuilds request.url from its own host name, and the production server uses a placeholder
// one (lib/server/api-routes.ts): only the path and query are the client's. Most
// requests never need the whole URL (only a page's Link does), so it is built on first use.
class ApiRequestOf<Params> implements ApiRequest<Params> {
  readonly query: URLSearchParams;
  readonly #target: string;
  #url: URL | undefined;

  constructor(
    readonly request: IncomingRequest,
    readonly params: Params,
    readonly requestId: string,
    readonly key: ApiKey | undefined,
  ) {
    const { url } = request;
    this.#target = url.slice(url.indexOf("/", url.indexOf("//") + 2));
    const queryStart = this.#target.indexOf("?");
    const fragmentStart = this.#target.indexOf("#");
    this.query = new URLSearchParams(queryStart === -1 ? "" : this.#target.slice(queryStart + 1, fragmentStart === -1 ? undefined : fragmentStart));
  }

  get url(): URL {
    this.#url ??= new URL(requestOrigin(this.request.headers) + this.#target);
    return this.#url;
  }
}

/**
 * The one wrapper of /v1 handlers: authentication, rate limits and role (./auth); a write from another
 * site's page is refused (a 403: browsers send its Origin); then the handler (which parses
 * parameters, queries or writes, and responds); any error becomes a problem+json response. Other
 * methods never reach it (see ./methods), so the order is method, authentication, role, parameters, resource.
 */
export function withApiKey<Params>(handler: ApiHandler<Params>, options: { public?: boolean; role?: Role; write?: boolean } = {}) {
  return async (request: IncomingRequest, params: Params): Promise<Response> => {
    const requestId = newRequestId();
    let limitHeaders: Record<string, string> = {};
    let response: Response;
    try {
      let key: ApiKey | undefined;
      if (!options.public) {
        const admission = await admitApiRequest(request.headers, options.role);
        limitHeaders = admission.headers;
        if (admission.error) throw admission.error;
        key = admission.key;
      }
      if (options.write) {
        const refusal = crossOriginApiRefusal(request.headers, env().CORS_ORIGINS);
        if (refusal) throw new AppError("forbidden", `Refused: ${refusal}. A write to /v1 from a browser is accepted only from this site or an origin in CORS_ORIGINS.`);
      }
      response = await handler(new ApiRequestOf(request, params, requestId, key));
    } catch (error) {
      response = toProblemResponse(error, requestId);
    }
    return finishResponse(request, response, requestId, limitHeaders, { anyOrigin: options.public });
  };
}
