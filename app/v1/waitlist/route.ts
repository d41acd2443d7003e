// GET /v1/waitlist – list waitlists (all, or one keyset page with ?limit&cursor)
import { parseKeyset } from "@/lib/api/keyset";
import { jsonResponse, nextPageHeaders } from "@/lib/api/responses";
import { WAITLISTS_SCOPE } from "@/lib/api/scopes";
import { withApiKey } from "@/lib/api/with-api-key";
import { parseApiQuery, waitlistListParamsSchema } from "@/lib/list-params";
import { listWaitlists, toWaitlistResponse } from "@/lib/waitlists";

export const dynamic = "force-dynamic";

export const GET = withApiKey(({ url }) => {
  const page = parseKeyset(WAITLISTS_SCOPE, parseApiQuery(url.searchParams, waitlistListParamsSchema), "number");
  const { items, next } = listWaitlists(page ?? {});
  return jsonResponse(items.map(toWaitlistResponse), nextPageHeaders(url, WAITLISTS_SCOPE, next));
});
export const HEAD = GET;
export { OPTIONS, POST, PUT, PATCH, DELETE } from "@/lib/api/methods";
