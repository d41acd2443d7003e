import Form from "next/form";
import Link from "next/link";
import { buttonClass, inputClass, linkClass } from "@/components/styles";
import { AUDIT_ACTIONS, MAX_AUDIT_ACTOR, type AuditAction } from "@/lib/domain/audit/log";

/** A GET form: the action and the actor (a key's name or id, or cli) to show. */
export function AuditFilters({ action, actor }: { action?: AuditAction; actor?: string }) {
  return (
    <Form action="/audit" aria-label="Filter the audit log" className="mt-4 flex flex-wrap items-end gap-3">
      <div>
        <label htmlFor="audit-action" className="block text-sm font-medium">
          Action
        </label>
        <select id="audit-action" name="action" defaultValue={action ?? ""} className={`${inputClass} mt-1`}>
          <option value="">Any action</option>
          {AUDIT_ACTIONS.map((each) => (
            <option key={each} value={each}>
              {each}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="audit-actor" className="block text-sm font-medium">
          Actor
        </label>
        <input id="audit-actor" name="actor" defaultValue={actor ?? ""} maxLength={MAX_AUDIT_ACTOR} placeholder="key name, key id or cli" autoComplete="off" className={`${inputClass} mt-1`} />
      </div>
      <button type="submit" className={buttonClass}>
        Filter
      </button>
      {action || actor ? (
        <Link href="/audit" className={`${linkClass} py-1.5 text-sm`}>
          Clear filters
        </Link>
      ) : null}
    </Form>
  );
}
