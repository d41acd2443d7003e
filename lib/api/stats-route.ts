import { funnelStats } from "@/lib/domain/funnel/stats";
import { statsParamsSchema, statsRangeOf } from "@/lib/domain/funnel/schemas";
import { parseApiQuery } from "@/lib/domain/list-params";
import { parseWaitlistId } from "@/lib/domain/waitlists/id";
import { getWaitlistOrThrow } from "@/lib/domain/waitlists/queries";
import { CACHE_CONTROL } from "./headers";
import { conditionalJsonResponse } from "./responses";
import type { ApiHandler } from "./with-api-key";

// GET /v1/waitlist/{id}/stats – the waitlist's funnel (lib/domain/funnel/stats.ts) over a range of days of joining
export const getWaitlistStatsRoute: ApiHandler<{ id: string }> = async ({ request, query, params }) => {
  const waitlistId = parseWaitlistId(params.id);
  const range = statsRangeOf(parseApiQuery(query, statsParamsSchema));
  await getWaitlistOrThrow(waitlistId);
  return conditionalJsonResponse(request, JSON.stringify(await funnelStats(waitlistId, range)), {}, CACHE_CONTROL.revalidatePrivate);
};
