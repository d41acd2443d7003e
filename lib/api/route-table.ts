import { DELETE, optionsHandler, PATCH, POST, PUT } from "./methods";
import { openApiDocumentWith, operations } from "./openapi";
import type { OpenApiDocument, OperationObject } from "./openapi-types";
import { CACHE_CONTROL } from "./headers";
import { conditionalJsonResponse } from "./responses";
import { getWaitlistRoute, listSignupsRoute, listWaitlistsRoute } from "./routes";
import { withApiKey, type ApiHandler } from "./with-api-key";
import { noParamsSchema, parseApiQuery } from "@/lib/domain/list-params";
import type { IncomingRequest } from "@/lib/http/incoming";

// The routes of /v1, one entry each. From this table come the exports of app/v1/**/route.ts
// (routeModule), the production server's fast path (lib/server/api-routes.ts) and the paths of the
// OpenAPI document; tests/unit/route-table.test.ts fails when a route file and the table disagree.
//
// What the fast path does differently from Next.js, decided here once:
// - It answers GET and HEAD of these routes itself, with the same functions (routeModule's GET and
//   HEAD), without Next.js's routing. Everything else under /v1 goes to Next.js: other methods
//   (OPTIONS 204, the others 405: ./methods.ts), a trailing slash (Next's 308 to the path without
//   it), unknown paths (404: app/v1/[[...path]]/route.ts), a `{param}` that does not percent-decode.
// - It compresses what it serves (lib/http/compression.ts); the few /v1 answers Next.js serves are
//   small problem bodies and empty 204/308s, sent as they are. Next.js adds `Vary: rsc,
//   next-router-state-tree, …` to every route handler's response and a `Refresh` header to its
//   redirect: lib/server/next-api-headers.ts takes them off. Security headers and Request-Id come
//   from lib/server for both.
// - A path matches at most one template: the fast path takes the first that matches, where
//   Next.js would prefer a static segment to a `{param}`; add none that overlap.

/** The `{name}` parameters of a path template, as Next.js hands them to the handler. */
type ParamsOf<Template extends string> = Template extends `${string}{${infer Name}}${infer Rest}` ? { [Key in Name | keyof ParamsOf<Rest>]: string } : object;

interface ApiRoute<Template extends string> {
  /** The path under /v1; `{id}` is the folder `[id]` under app/v1. */
  template: Template;
  /** The one method with a handler; HEAD answers as it does without the body (withApiKey). */
  method: "GET";
  /** false: answered without an API key and outside the rate limits. */
  needsKey: boolean;
  handler: ApiHandler<ParamsOf<Template>>;
  /** Its OpenAPI operation (./openapi.ts); `security: []` is added when it needs no key. */
  operation: OperationObject;
}

const route = <const Template extends string>(entry: ApiRoute<Template>) => entry;

export const API_ROUTES = [
  route({ template: "/waitlist", method: "GET", needsKey: true, handler: listWaitlistsRoute, operation: operations.listWaitlists }),
  route({ template: "/waitlist/{id}", method: "GET", needsKey: true, handler: getWaitlistRoute, operation: operations.getWaitlist }),
  route({ template: "/waitlist/{id}/signup", method: "GET", needsKey: true, handler: listSignupsRoute, operation: operations.listSignups }),
  route({ template: "/openapi.json", method: "GET", needsKey: false, handler: getOpenApiRoute, operation: operations.getOpenApi }),
];

// GET /v1/openapi.json – this API's OpenAPI document (public: no key, any origin)
function getOpenApiRoute({ request, query }: { request: IncomingRequest; query: URLSearchParams }): Response {
  parseApiQuery(query, noParamsSchema);
  openApiText ??= JSON.stringify(openApiDocument);
  return conditionalJsonResponse(request, openApiText, {}, CACHE_CONTROL.revalidatePublic);
}
let openApiText: string | undefined;

export type ApiPathTemplate = (typeof API_ROUTES)[number]["template"];

/** The OpenAPI 3.1 document of /v1 (served at /v1/openapi.json, rendered at /docs/api). */
export const openApiDocument: OpenApiDocument = openApiDocumentWith(
  Object.fromEntries(
    API_ROUTES.map(({ template, method, needsKey, operation }) => [template, { [method.toLowerCase()]: needsKey ? operation : { ...operation, security: [] } }]),
  ),
);

type RouteHandler<Params> = (request: Request, segment: { params: Promise<Params> }) => Promise<Response>;

/** What a route file exports: every method Next.js routes, so it never answers with its own bodiless 405. */
export interface RouteModule<Params> {
  GET: RouteHandler<Params>;
  HEAD: RouteHandler<Params>;
  OPTIONS: ReturnType<typeof optionsHandler>;
  POST: typeof POST;
  PUT: typeof PUT;
  PATCH: typeof PATCH;
  DELETE: typeof DELETE;
}

/** A GET handler as the production server's fast path calls it (lib/server/api-routes.ts), with no Request built. */
export type ApiGetHandler = (request: IncomingRequest, segment: { params: Promise<Record<string, string>> }) => Promise<Response>;

const getHandlers = new Map<string, ApiGetHandler>(
  API_ROUTES.map(({ template, needsKey, handler }) => [template, withApiKey(handler as ApiHandler<Record<string, string>>, { public: !needsKey })]),
);

const modules = new Map<string, RouteModule<never>>(
  API_ROUTES.map(({ template, needsKey }) => {
    const GET = getHandlers.get(template)!;
    return [template, { GET, HEAD: GET, OPTIONS: optionsHandler({ anyOrigin: !needsKey }), POST, PUT, PATCH, DELETE }];
  }),
);

/** The GET (and HEAD) handler of `template`: the one its route file exports. */
export function apiGetHandler(template: ApiPathTemplate): ApiGetHandler {
  return getHandlers.get(template)!;
}

/** The exports of the route file of `template` (app/v1/<template with [param] folders>/route.ts). */
export function routeModule<Template extends ApiPathTemplate>(template: Template): RouteModule<ParamsOf<Template>> {
  return modules.get(template)! as RouteModule<ParamsOf<Template>>;
}
