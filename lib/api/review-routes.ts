import { invalidParameter } from "@/lib/core/errors";
import { firstIssueOf } from "@/lib/core/zod-issue";
import type { FlagDecision } from "@/lib/domain/fraud/reasons";
import { decideFlags } from "@/lib/domain/fraud/review";
import { actionBodySchema, MAX_ACTION_EMAILS, noParamsSchema, parseApiQuery } from "@/lib/domain/list-params";
import { signupPublicId } from "@/lib/domain/signups/id";
import { parseWaitlistId } from "@/lib/domain/waitlists/id";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";
import { CACHE_CONTROL } from "./headers";
import { jsonTextResponse } from "./responses";
import type { ApiHandler } from "./with-api-key";

// The review decisions of /v1 (lib/domain/fraud/review.ts), each listed in the route table.

const BODY_SHAPE = `{"emails": [up to ${MAX_ACTION_EMAILS} addresses]}`;

function parseEmails(body: string): string[] {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw invalidParameter("body", `The body must be a JSON object: ${BODY_SHAPE}.`);
  }
  const parsed = actionBodySchema.safeParse(json);
  if (!parsed.success) {
    const issue = firstIssueOf(parsed.error);
    const name = issue.unknownKey ?? issue.where ?? "body";
    throw invalidParameter(name === "body" ? "body" : "emails", `The body's "${name}" ${issue.message} (expected ${BODY_SHAPE}).`);
  }
  return parsed.data.emails;
}

// POST /v1/waitlist/{id}/signup/review/{decision} – approve or discount the flagged signups a list of addresses names
export function reviewDecisionRoute(decision: FlagDecision): ApiHandler<{ id: string }> {
  return async ({ request, query, params, key }) => {
    const waitlistId = parseWaitlistId(params.id);
    parseApiQuery(query, noParamsSchema);
    const emails = parseEmails(request.text ? await request.text() : "");
    const actor = { keyId: key!.id, keyName: key!.name };
    const outcome = await writeWithoutBlocking(async () => await decideFlags(actor, decision, { waitlistId, emails }));
    const body = { decided: outcome.decided, skipped: outcome.skipped, ids: outcome.ids.map(signupPublicId) };
    return jsonTextResponse(JSON.stringify(body), { "Cache-Control": CACHE_CONTROL.personalData });
  };
}
