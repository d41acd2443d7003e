import { createHash } from "node:crypto";
import { AppError, invalidParameter } from "@/lib/core/errors";
import { firstIssueOf } from "@/lib/core/zod-issue";
import { submitJoin } from "@/lib/domain/joining/join";
import { JoinRefused, type JoinRefusal } from "@/lib/domain/joining/join-input";
import { joinBodySchema } from "@/lib/domain/joining/request";
import { SOURCE_FIELDS, sourceValue, type SignupSource, type SourceField } from "@/lib/domain/funnel/source";
import { parseWaitlistId } from "@/lib/domain/waitlists/id";
import { currentClientLimiterKey } from "@/lib/http/client-address";
import { CACHE_CONTROL } from "./headers";
import { idempotencyKey } from "./idempotency-key";
import { toProblemResponse } from "./problem";
import { recordedResponse } from "./responses";
import type { ApiHandler } from "./with-api-key";
import { joinAnswer } from "./write-answers";

// POST /v1/waitlist/{id}/signup – put a person on the waitlist (lib/domain/joining/join.ts): 201 with
// the new signup; 200 for an address (any case) already on the list, saying nothing stored about it.

/** A join's body is small: an address, a referral code and at most 20 short answers. */
export const MAX_JOIN_BODY_BYTES = 64 * 1024;

const REFUSAL_CODES: Record<JoinRefusal, { code: "not_found" | "conflict" | "invalid_parameter" | "unprocessable" | "rate_limited"; parameter?: string }> = {
  not_found: { code: "not_found" },
  closed: { code: "conflict" },
  invalid_email: { code: "invalid_parameter", parameter: "email" },
  disposable_email: { code: "unprocessable", parameter: "email" },
  invalid_inputs: { code: "invalid_parameter", parameter: "custom_inputs" },
  rate_limited: { code: "rate_limited" },
};

function parseBody(body: string) {
  if (Buffer.byteLength(body) > MAX_JOIN_BODY_BYTES) throw invalidParameter("body", `The body is larger than ${MAX_JOIN_BODY_BYTES / 1024} KB.`);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw invalidParameter("body", 'The body must be a JSON object: {"email": "…", "custom_inputs": [{"label": "…", "value": "…"}], "referral_code": "…"}.');
  }
  const parsed = joinBodySchema.safeParse(json);
  if (!parsed.success) {
    const issue = firstIssueOf(parsed.error);
    const name = issue.unknownKey ?? issue.where ?? "body";
    throw invalidParameter(issue.key ?? issue.unknownKey ?? "body", `The body's "${name}" ${issue.message}.`);
  }
  return parsed.data;
}

/** The body's source fields (lib/domain/funnel/source.ts), each one line of short text. */
function parseSource(fields: Partial<Record<SourceField, string>>): SignupSource {
  const source: SignupSource = {};
  for (const field of SOURCE_FIELDS) {
    const text = fields[field];
    if (text === undefined) continue;
    const parsed = sourceValue(field, text);
    if (!parsed.ok) throw invalidParameter(field, `The body's "${field}" ${parsed.message}.`);
    if (parsed.value !== undefined) source[field] = parsed.value;
  }
  return source;
}

export const joinRoute: ApiHandler<{ id: string }> = async ({ request, params, key, requestId }) => {
  const waitlistId = parseWaitlistId(params.id);
  const body = request.text ? await request.text() : "";
  const { email, custom_inputs: customInputs, referral_code: referralCode, ...sourceFields } = parseBody(body);
  const input = { waitlistId, email, customInputs, referralCode, source: parseSource(sourceFields), clientAddress: currentClientLimiterKey(request.headers) };
  const idempotent = idempotencyKey(request.headers.get("idempotency-key"));
  const requestHash = createHash("sha256").update(`join\n${waitlistId}\n${body}`).digest("hex");
  try {
    const outcome = await submitJoin({ input, recorded: { idempotency: idempotent === undefined ? undefined : { apiKeyId: key!.id, key: idempotent, requestHash } } }, joinAnswer);
    return recordedResponse(outcome, { "Cache-Control": CACHE_CONTROL.personalData });
  } catch (error) {
    if (!(error instanceof JoinRefused)) throw error;
    const { code, parameter } = REFUSAL_CODES[error.reason];
    const response = toProblemResponse(new AppError(code, error.message, parameter), requestId);
    if (error.retryAfterSeconds !== undefined) response.headers.set("Retry-After", String(error.retryAfterSeconds));
    return response;
  }
};
