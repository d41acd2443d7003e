// GET /v1/waitlist/{id}/signup – a waitlist's signups (all of them streamed, or one keyset page with ?limit&cursor)
import { jsonArrayStream } from "@/lib/api/json-stream";
import { parseKeyset } from "@/lib/api/keyset";
import { parseWaitlistId } from "@/lib/waitlist-id";
import { jsonStreamResponse, jsonTextResponse, nextPageHeaders } from "@/lib/api/responses";
import { signupsScope } from "@/lib/api/scopes";
import { withApiKey } from "@/lib/api/with-api-key";
import { parseApiQuery, signupListParamsSchema } from "@/lib/list-params";
import { signupJsonBatches, signupJsonPage } from "@/lib/signups";
import { getWaitlistOrThrow } from "@/lib/waitlists";

export const dynamic = "force-dynamic";

export const GET = withApiKey<{ id: string }>(({ url, params, requestId }) => {
  const waitlistId = parseWaitlistId(params.id);
  const { verified, referral, ...keyset } = parseApiQuery(url.searchParams, signupListParamsSchema);
  const cursorScope = signupsScope(waitlistId, { verified, referral });
  const page = parseKeyset(cursorScope, keyset, "number");
  getWaitlistOrThrow(waitlistId);
  const scope = { waitlistId, verified, referral };
  if (!page) {
    const onError = (error: unknown) => console.error(`[request ${requestId}] signup stream failed`, error);
    return jsonStreamResponse(jsonArrayStream(signupJsonBatches(scope), onError));
  }
  const { items, next } = signupJsonPage({ scope, ...page });
  return jsonTextResponse(`[${items.join(",")}]`, nextPageHeaders(url, cursorScope, next));
});
export const HEAD = GET;
export { OPTIONS, POST, PUT, PATCH, DELETE } from "@/lib/api/methods";
