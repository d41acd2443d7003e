import { invalidParameter } from "@/lib/errors";

/** Any-case UUID text; ids are stored and returned lowercase. */
export const UUID_PATTERN = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";
const uuid = new RegExp(UUID_PATTERN);

/** The `{id}` path segment: a UUID or a 400 naming `id`. Returned lowercase. */
export function parseWaitlistId(id: string): string {
  if (!uuid.test(id)) throw invalidParameter("id", `The path parameter "id" must be a UUID, got "${id.slice(0, 64)}".`);
  return id.toLowerCase();
}
