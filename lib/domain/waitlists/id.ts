import { invalidParameter } from "@/lib/core/errors";

/** Any-case UUID text; ids are stored and returned lowercase. */
export const UUID_PATTERN = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";
const uuid = new RegExp(UUID_PATTERN);

/** Whether a path segment can be a waitlist id at all (checked before any query). */
export function isWaitlistId(candidate: string): boolean {
  return uuid.test(candidate);
}

/** The `{id}` path segment of /v1: a UUID or a 400 naming `id`. Returned lowercase. */
export function parseWaitlistId(id: string): string {
  if (!isWaitlistId(id)) throw invalidParameter("id", `The path parameter "id" must be a UUID, got "${id.slice(0, 64)}".`);
  return id.toLowerCase();
}
