import { openApiDocumentWith, operations, reviewDecisionOperation, scheduleOperations, statusActionOperation } from "./openapi";
import { getInvitationRoute, redeemInvitationRoute } from "./invitation-routes";
import { addScheduleRoute, changeScheduleRoute, listSchedulesRoute, previewScheduleRoute, removeScheduleRoute } from "./schedule-routes";
import type { OpenApiDocument, OperationObject } from "./openapi-types";
import { CACHE_CONTROL } from "./headers";
import { conditionalJsonResponse } from "./responses";
import { getWaitlistRoute, listEventsRoute, listSignupsRoute, listWaitlistsRoute } from "./routes";
import { joinRoute } from "./join-route";
import { statusActionRoute } from "./status-routes";
import { reviewDecisionRoute } from "./review-routes";
import { getWaitlistStatsRoute } from "./stats-route";
import { FLAG_DECISION_NAMES } from "@/lib/domain/fraud/reasons";
import { ADMIN_ROLE, JOIN_ROLE, REDEEM_ROLE, type Role } from "@/lib/domain/keys/queries";
import { STATUS_ACTION_NAMES } from "@/lib/domain/signups/status";
import type { ApiHandler } from "./with-api-key";
import { noParamsSchema, parseApiQuery } from "@/lib/domain/list-params";
import type { IncomingRequest } from "@/lib/http/incoming";

// The routes of /v1, one entry each. From this table come the dispatcher (./dispatch.ts), the one
// matcher of every /v1 request, and the paths of the OpenAPI document. A path matches at most one
// template (the dispatcher takes the first that matches): add none that overlap. A template may have
// one entry per method.

/** The `{name}` parameters of a path template, as the dispatcher hands them to the handler. */
type ParamsOf<Template extends string> = Template extends `${string}{${infer Name}}${infer Rest}` ? { [Key in Name | keyof ParamsOf<Rest>]: string } : object;

interface ApiRoute<Template extends string> {
  /** The path under /v1; `{id}` is a path parameter. */
  template: Template;
  /** The one method with a handler; HEAD answers a GET as it does without the body (withApiKey). */
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** false: answered without an API key and outside the rate limits. */
  needsKey: boolean;
  /** The role the key needs (default waitlist:view). */
  role?: Role;
  handler: ApiHandler<ParamsOf<Template>>;
  /** Its OpenAPI operation (./openapi.ts); `security: []` is added when it needs no key. */
  operation: OperationObject;
}

const route = <const Template extends string>(entry: ApiRoute<Template>) => entry;

export const API_ROUTES = [
  route({ template: "/waitlist", method: "GET", needsKey: true, handler: listWaitlistsRoute, operation: operations.listWaitlists }),
  route({ template: "/waitlist/{id}", method: "GET", needsKey: true, handler: getWaitlistRoute, operation: operations.getWaitlist }),
  route({ template: "/waitlist/{id}/signup", method: "GET", needsKey: true, handler: listSignupsRoute, operation: operations.listSignups }),
  route({ template: "/waitlist/{id}/signup", method: "POST", needsKey: true, role: JOIN_ROLE, handler: joinRoute, operation: operations.joinWaitlist }),
  route({ template: "/waitlist/{id}/events", method: "GET", needsKey: true, handler: listEventsRoute, operation: operations.listEvents }),
  route({ template: "/openapi.json", method: "GET", needsKey: false, handler: getOpenApiRoute, operation: operations.getOpenApi }),
  // `complete` by address is also the product's (waitlist:redeem, which admin includes); the handler keeps filters to admins.
  ...STATUS_ACTION_NAMES.map((action) =>
    route({ template: `/waitlist/{id}/signup/${action}`, method: "POST", needsKey: true, role: action === "complete" ? REDEEM_ROLE : ADMIN_ROLE, handler: statusActionRoute(action), operation: statusActionOperation(action) }),
  ),
  ...FLAG_DECISION_NAMES.map((decision) =>
    route({ template: `/waitlist/{id}/signup/review/${decision}`, method: "POST", needsKey: true, role: ADMIN_ROLE, handler: reviewDecisionRoute(decision), operation: reviewDecisionOperation(decision) }),
  ),
  route({ template: "/invitations/{token}", method: "GET", needsKey: true, role: REDEEM_ROLE, handler: getInvitationRoute, operation: operations.getInvitation }),
  route({ template: "/invitations/{token}/redeem", method: "POST", needsKey: true, role: REDEEM_ROLE, handler: redeemInvitationRoute, operation: operations.redeemInvitation }),
  route({ template: "/waitlist/{id}/stats", method: "GET", needsKey: true, handler: getWaitlistStatsRoute, operation: operations.getWaitlistStats }),
  route({ template: "/waitlist/{id}/schedules", method: "GET", needsKey: true, role: ADMIN_ROLE, handler: listSchedulesRoute, operation: scheduleOperations.listSchedules }),
  route({ template: "/waitlist/{id}/schedules", method: "POST", needsKey: true, role: ADMIN_ROLE, handler: addScheduleRoute, operation: scheduleOperations.addSchedule }),
  route({ template: "/waitlist/{id}/schedules/{schedule_id}", method: "PATCH", needsKey: true, role: ADMIN_ROLE, handler: changeScheduleRoute, operation: scheduleOperations.changeSchedule }),
  route({ template: "/waitlist/{id}/schedules/{schedule_id}", method: "DELETE", needsKey: true, role: ADMIN_ROLE, handler: removeScheduleRoute, operation: scheduleOperations.removeSchedule }),
  route({ template: "/waitlist/{id}/schedules/{schedule_id}/preview", method: "GET", needsKey: true, role: ADMIN_ROLE, handler: previewScheduleRoute, operation: scheduleOperations.previewSchedule }),
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
  API_ROUTES.reduce<OpenApiDocument["paths"]>((paths, { template, method, needsKey, operation }) => {
    paths[template] = { ...paths[template], [method.toLowerCase()]: needsKey ? operation : { ...operation, security: [] } };
    return paths;
  }, {}),
);
