import { AppError } from "@/lib/core/errors";

/** The most characters an Idempotency-Key may have (Stripe's limit). */
export const MAX_IDEMPOTENCY_KEY = 255;

/** The Idempotency-Key header of a /v1 write, trimmed; undefined when it is not sent. */
export function idempotencyKey(value: string | null): string | undefined {
  if (value === null) return undefined;
  const key = value.trim();
  if (key.length < 1 || key.length > MAX_IDEMPOTENCY_KEY) {
    throw new AppError("invalid_parameter", `The Idempotency-Key header must have 1 to ${MAX_IDEMPOTENCY_KEY} characters.`, "Idempotency-Key");
  }
  return key;
}
