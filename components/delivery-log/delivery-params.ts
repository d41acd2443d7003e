import { deliveryQuerySchema, type DeliveryQuery } from "@/lib/domain/deliveries/queries";

export const DELIVERY_PAGE_SIZE = 50;

/** What a delivery log page's URL may say: its filters and page (the waitlist comes from the path). */
export type DeliveryLogQuery = Pick<DeliveryQuery, "state" | "type" | "endpoint" | "before">;

type SearchParams = Record<string, string | string[] | undefined>;

/**
 * A delivery log's URL (`state`, `type`, `endpoint`, `before`), read leniently like the rest of the
 * dashboard: each value that does not pass `webhooks deliveries`'s schema is dropped.
 */
export function parseDeliveryParams(params: SearchParams): DeliveryLogQuery {
  const shape = deliveryQuerySchema.shape;
  const pick = <T>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } }, name: string): T | undefined => {
    const value = params[name];
    if (typeof value !== "string" || value === "") return undefined;
    const parsed = schema.safeParse(value);
    return parsed.success ? parsed.data : undefined;
  };
  return { state: pick(shape.state, "state"), type: pick(shape.type, "type"), endpoint: pick(shape.endpoint, "endpoint"), before: pick(shape.before, "before") };
}

/** The URL of a log at `basePath` with these filters (and page), writing only what is set. */
export function deliveryHref(basePath: string, query: DeliveryLogQuery): string {
  const search = new URLSearchParams();
  if (query.state) search.set("state", query.state);
  if (query.type) search.set("type", query.type);
  if (query.endpoint) search.set("endpoint", query.endpoint);
  if (query.before !== undefined) search.set("before", String(query.before));
  const text = search.toString();
  return text ? `${basePath}?${text}` : basePath;
}
