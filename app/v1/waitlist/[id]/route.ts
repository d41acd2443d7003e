// GET /v1/waitlist/{id} – one waitlist
import { parseWaitlistId } from "@/lib/waitlist-id";
import { jsonResponse } from "@/lib/api/responses";
import { withApiKey } from "@/lib/api/with-api-key";
import { noParamsSchema, parseApiQuery } from "@/lib/list-params";
import { getWaitlistOrThrow, toWaitlistResponse } from "@/lib/waitlists";

export const dynamic = "force-dynamic";

export const GET = withApiKey<{ id: string }>(({ url, params }) => {
  const id = parseWaitlistId(params.id);
  parseApiQuery(url.searchParams, noParamsSchema);
  return jsonResponse(toWaitlistResponse(getWaitlistOrThrow(id)));
});
export const HEAD = GET;
export { OPTIONS, POST, PUT, PATCH, DELETE } from "@/lib/api/methods";
