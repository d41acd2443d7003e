import "server-only";
import { z } from "zod";
import { ROLES } from "./queries";
import { durationSchema } from "../duration";

// The fields of a new key, shared by `keys create` and the dashboard's form (app/(dashboard)/keys).

export const roleSchema = z.enum(ROLES, { error: (issue) => `unknown role ${JSON.stringify(issue.input)} (known roles: ${ROLES.join(", ")})` });

export const MAX_KEY_NAME = 200;

export const apiKeyNameSchema = z.string().trim().min(1, "must not be empty").max(MAX_KEY_NAME, `must be at most ${MAX_KEY_NAME} characters`);

/** `keys create`: repeatable --role. */
export const newApiKeyOptionsSchema = z.object({
  name: apiKeyNameSchema,
  role: z.array(roleSchema).min(1),
  "expires-in": durationSchema.optional(),
});

/** The dashboard's form: one role (admin includes view), and an empty expiry for never. */
export const newApiKeyFormSchema = z.object({
  name: apiKeyNameSchema,
  role: roleSchema,
  "expires-in": z.literal("").transform(() => undefined).or(durationSchema).optional(),
});

/** When a key created now with that `expires-in` (milliseconds) expires; null for never. */
export function expiryFrom(expiresInMs: number | undefined, now = Date.now()): Date | null {
  return expiresInMs === undefined ? null : new Date(now + expiresInMs);
}
