import Form from "next/form";
import Link from "next/link";
import { buttonClass, inputClass, linkClass } from "@/components/styles";
import { DELIVERY_STATES } from "@/lib/domain/deliveries/queries";
import { EVENT_TYPES } from "@/lib/domain/events";
import type { DeliveryLogQuery } from "./delivery-params";

/** A GET form: the state and event type to show (an endpoint filter, from the endpoints page, is kept). */
export function DeliveryFilters({ basePath, query }: { basePath: string; query: DeliveryLogQuery }) {
  const filtered = query.state !== undefined || query.type !== undefined || query.endpoint !== undefined;
  return (
    <Form action={basePath} aria-label="Filter the delivery log" className="mt-4 flex flex-wrap items-end gap-3">
      {query.endpoint ? <input type="hidden" name="endpoint" value={query.endpoint} /> : null}
      <div>
        <label htmlFor="delivery-state" className="block text-sm font-medium">
          State
        </label>
        <select id="delivery-state" name="state" defaultValue={query.state ?? ""} className={`${inputClass} mt-1`}>
          <option value="">Any state</option>
          {DELIVERY_STATES.map((state) => (
            <option key={state} value={state}>
              {state.replace("_", " ")}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="delivery-type" className="block text-sm font-medium">
          Event type
        </label>
        <select id="delivery-type" name="type" defaultValue={query.type ?? ""} className={`${inputClass} mt-1`}>
          <option value="">Any type</option>
          {EVENT_TYPES.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className={buttonClass}>
        Filter
      </button>
      {filtered ? (
        <Link href={basePath} className={`${linkClass} py-1.5 text-sm`}>
          Clear filters
        </Link>
      ) : null}
    </Form>
  );
}
