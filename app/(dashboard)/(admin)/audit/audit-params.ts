import { auditQuerySchema, type AuditQuery } from "@/lib/domain/audit/log";

export const AUDIT_PAGE_SIZE = 50;

type SearchParams = Record<string, string | string[] | undefined>;

/**
 * The /audit page's URL (`action`, `actor`, `before`), read leniently like the rest of the
 * dashboard: each value that does not pass `audit list`'s schema is dropped.
 */
export function parseAuditParams(params: SearchParams): Omit<AuditQuery, "limit"> {
  const shape = auditQuerySchema.shape;
  const pick = <T>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } }, name: string): T | undefined => {
    const value = params[name];
    if (typeof value !== "string" || value === "") return undefined;
    const parsed = schema.safeParse(value);
    return parsed.success ? parsed.data : undefined;
  };
  return { action: pick(shape.action, "action"), actor: pick(shape.actor, "actor"), before: pick(shape.before, "before") };
}

/** The /audit URL of these filters (and page), writing only what is set. */
export function auditHref(query: Omit<AuditQuery, "limit">): string {
  const search = new URLSearchParams();
  if (query.action) search.set("action", query.action);
  if (query.actor) search.set("actor", query.actor);
  if (query.before !== undefined) search.set("before", String(query.before));
  const text = search.toString();
  return text ? `/audit?${text}` : "/audit";
}
