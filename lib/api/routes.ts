// The GET handlers of /v1, each listed in the route table (./route-table.ts); the dispatcher
// (./dispatch.ts) wraps them in withApiKey.
import { decodeCursor, encodeLineCursor, parseKeyset, parseLineKeyset } from "./cursor";
import { jsonArrayStream } from "./json-stream";
import { CACHE_CONTROL } from "./headers";
import { conditionalJsonResponse, jsonStreamResponse, nextPageHeaders, nextPageLink } from "./responses";
import { eventsScope, signupsScope, WAITLISTS_SCOPE } from "./scopes";
import type { ApiHandler } from "./with-api-key";
import type { IncomingRequest } from "@/lib/http/incoming";
import { invalidParameter } from "@/lib/core/errors";
import { listEventFeed } from "@/lib/domain/deliveries/feed";
import { eventFeedParamsSchema, noParamsSchema, parseApiQuery, parseSignupListQuery, waitlistListParamsSchema } from "@/lib/domain/list-params";
import type { SignupScope } from "@/lib/domain/signups/filter";
import { signupJsonChunks } from "@/lib/domain/signups/json-chunks";
import { signupJsonLineBatches, signupJsonLinePage, signupJsonPage } from "@/lib/domain/signups/queries";
import type { SignupField } from "@/lib/domain/signups/response";
import { parseWaitlistId } from "@/lib/domain/waitlists/id";
import { getWaitlistOrThrow, listWaitlists } from "@/lib/domain/waitlists/queries";
import { toWaitlistResponse } from "@/lib/domain/waitlists/response";

// GET /v1/waitlist – list waitlists (all, or one keyset page with ?limit&cursor)
export const listWaitlistsRoute: ApiHandler<object> = async ({ request, query, url }) => {
  const page = parseKeyset(WAITLISTS_SCOPE, parseApiQuery(query, waitlistListParamsSchema), "number");
  const { items, next } = await listWaitlists(page ?? {});
  return conditionalJsonResponse(request, JSON.stringify(items.map(toWaitlistResponse)), nextPageHeaders(url, WAITLISTS_SCOPE, next), CACHE_CONTROL.revalidatePrivate);
};

// GET /v1/waitlist/{id} – one waitlist
export const getWaitlistRoute: ApiHandler<{ id: string }> = async ({ request, query, params }) => {
  const id = parseWaitlistId(params.id);
  parseApiQuery(query, noParamsSchema);
  return conditionalJsonResponse(request, JSON.stringify(toWaitlistResponse(await getWaitlistOrThrow(id))), {}, CACHE_CONTROL.revalidatePrivate);
};

// GET /v1/waitlist/{id}/signup – a waitlist's signups (all of them streamed, or one keyset page with ?limit&cursor)
export const listSignupsRoute: ApiHandler<{ id: string }> = async ({ request, query, url, params, requestId }) => {
  const waitlistId = parseWaitlistId(params.id);
  const { filter, fields, sort, keyset } = parseSignupListQuery(query);
  const scope = { waitlistId, ...filter };
  if (sort === "position") return listLine({ request, url, requestId }, scope, fields, keyset);
  const cursorScope = signupsScope(scope);
  const page = parseKeyset(cursorScope, keyset, "number");
  await getWaitlistOrThrow(waitlistId);
  if (!page) {
    const onError = (error: unknown) => console.error(`[request ${requestId}] signup stream failed`, error);
    return jsonStreamResponse(await jsonArrayStream(signupJsonChunks(scope, fields), onError), CACHE_CONTROL.personalData);
  }
  const { items, next } = await signupJsonPage({ scope, ...page, fields });
  return conditionalJsonResponse(request, `[${items.join(",")}]`, nextPageHeaders(url, cursorScope, next), CACHE_CONTROL.personalData);
};

/** GET /v1/waitlist/{id}/signup?sort=position: the line (waiting signups in their places), streamed or a keyset page. */
async function listLine({ request, url, requestId }: { request: IncomingRequest; url: URL; requestId: string }, scope: SignupScope, fields: readonly SignupField[] | undefined, keyset: { limit?: number; cursor?: string }) {
  const cursorScope = `${signupsScope(scope)}:position`;
  const page = parseLineKeyset(cursorScope, keyset);
  await getWaitlistOrThrow(scope.waitlistId);
  if (!page) {
    const onError = (error: unknown) => console.error(`[request ${requestId}] line stream failed`, error);
    return jsonStreamResponse(await jsonArrayStream(signupJsonLineBatches(scope, undefined, undefined, fields), onError), CACHE_CONTROL.personalData);
  }
  const { items, next } = await signupJsonLinePage({ scope, ...page, fields });
  return conditionalJsonResponse(request, `[${items.join(",")}]`, next ? nextPageLink(url, encodeLineCursor(cursorScope, next)) : {}, CACHE_CONTROL.personalData);
}

// GET /v1/waitlist/{id}/events – a waitlist's events, oldest first, a page at a time (?after&limit): the bodies its webhooks carry
export const listEventsRoute: ApiHandler<{ id: string }> = async ({ request, query, url, params }) => {
  const waitlistId = parseWaitlistId(params.id);
  const { limit, after } = parseApiQuery(query, eventFeedParamsSchema);
  const scope = eventsScope(waitlistId);
  const position = after === undefined ? undefined : decodeCursor(scope, after, "after");
  if (position && typeof position.id !== "number") throw invalidParameter("after", "The cursor is not one this API issued.");
  await getWaitlistOrThrow(waitlistId);
  const { items, next } = await listEventFeed(waitlistId, { limit, after: position });
  return conditionalJsonResponse(request, `[${items.join(",")}]`, nextPageHeaders(url, scope, next, "after"), CACHE_CONTROL.personalData);
};
