import { createHash } from "node:crypto";
import { AppError } from "@/lib/core/errors";
import { ADMIN_ROLE, rolesGrant } from "@/lib/domain/keys/queries";
import { parseActionRequest } from "@/lib/domain/list-params";
import type { StatusAction } from "@/lib/domain/signups/status";
import { writeStatus } from "@/lib/domain/signups/status-write";
import { parseWaitlistId } from "@/lib/domain/waitlists/id";
import { CACHE_CONTROL } from "./headers";
import { idempotencyKey } from "./idempotency-key";
import { recordedResponse } from "./responses";
import { statusActionAnswer } from "./write-answers";
import type { ApiHandler } from "./with-api-key";

// The status actions of /v1 (lib/domain/signups/status.ts), each listed in the route table.

// POST /v1/waitlist/{id}/signup/{action} – invite, reject, withdraw, restore or complete the signups a filter (with limit) or a list of addresses names
export function statusActionRoute(action: StatusAction): ApiHandler<{ id: string }> {
  return async ({ request, query, params, key }) => {
    const waitlistId = parseWaitlistId(params.id);
    const body = request.text ? await request.text() : "";
    const selection = parseActionRequest(action, waitlistId, query, body);
    // A waitlist:redeem key may complete the signups it names by address, never a filter's first N.
    if ("scope" in selection && !rolesGrant(key!.roles, ADMIN_ROLE)) throw new AppError("forbidden", `This API key lacks the role "${ADMIN_ROLE}": without it, name the signups by address ({"emails": [...]}).`);
    const idempotent = idempotencyKey(request.headers.get("idempotency-key"));
    const requestHash = createHash("sha256").update(`${action}\n${waitlistId}\n${query.toString()}\n${body}`).digest("hex");
    const actor = { keyId: key!.id, keyName: key!.name };
    const outcome = await writeStatus({ actor, action, selection, recorded: { idempotency: idempotent === undefined ? undefined : { key: idempotent, requestHash } } }, statusActionAnswer);
    return recordedResponse(outcome, { "Cache-Control": CACHE_CONTROL.personalData });
  };
}
