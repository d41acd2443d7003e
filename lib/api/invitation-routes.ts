import { getInvitationOrThrow, writeRedeem } from "@/lib/domain/invitations/redeem";
import { noParamsSchema, parseApiQuery } from "@/lib/domain/list-params";
import { CACHE_CONTROL } from "./headers";
import { conditionalJsonResponse, jsonTextResponse } from "./responses";
import type { ApiHandler } from "./with-api-key";

// The invitations of /v1 (lib/domain/invitations), for a product's sign-up: each listed in the route table.

// GET /v1/invitations/{token} – whether an invite token is good, and whose invitation it is
export const getInvitationRoute: ApiHandler<{ token: string }> = async ({ request, query, params }) => {
  parseApiQuery(query, noParamsSchema);
  return conditionalJsonResponse(request, JSON.stringify(await getInvitationOrThrow(params.token)), {}, CACHE_CONTROL.personalData);
};

// POST /v1/invitations/{token}/redeem – complete the invited signup (again: the same answer, nothing changed)
export const redeemInvitationRoute: ApiHandler<{ token: string }> = async ({ query, params, key }) => {
  parseApiQuery(query, noParamsSchema);
  const answer = await writeRedeem({ actor: { keyId: key!.id, keyName: key!.name }, token: params.token, now: Date.now() });
  return jsonTextResponse(JSON.stringify(answer), { "Cache-Control": CACHE_CONTROL.personalData });
};
