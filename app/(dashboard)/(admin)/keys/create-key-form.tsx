import { cardClass, inputClass, mutedText, primaryButtonClass } from "@/components/styles";
import { ADMIN_ROLE, VIEW_ROLE } from "@/lib/domain/api-keys";

// Values of the CLI's --expires-in (lib/domain/duration.ts): the form posts them as they are.
const EXPIRIES = [
  ["", "Never"],
  ["1d", "In 1 day"],
  ["7d", "In 7 days"],
  ["30d", "In 30 days"],
  ["90d", "In 90 days"],
  ["365d", "In 1 year"],
] as const;

/** POSTs to /keys/create (the same fields and rules as `keys create`). */
export function CreateKeyForm() {
  return (
    <section aria-labelledby="create-key-heading" className={`${cardClass} mt-8 max-w-xl p-4`}>
      <h2 id="create-key-heading" className="text-lg font-semibold">
        Create a key
      </h2>
      <form method="post" action="/keys/create" className="mt-3 space-y-3">
        <div>
          <label htmlFor="key-name" className="text-sm font-medium">
            Name
          </label>
          <p id="key-name-hint" className={`text-xs ${mutedText}`}>
            Who or what uses it, such as “reporting script” or “Ada”.
          </p>
          <input id="key-name" name="name" required maxLength={200} autoComplete="off" aria-describedby="key-name-hint" className={`${inputClass} mt-1 w-full`} />
        </div>
        <div>
          <label htmlFor="key-role" className="text-sm font-medium">
            Role
          </label>
          <p id="key-role-hint" className={`text-xs ${mutedText}`}>
            {VIEW_ROLE}: read the API, browse the dashboard. {ADMIN_ROLE}: that, and make changes in the dashboard.
          </p>
          <select id="key-role" name="role" defaultValue={VIEW_ROLE} aria-describedby="key-role-hint" className={`${inputClass} mt-1 max-w-full`}>
            <option value={VIEW_ROLE}>{VIEW_ROLE}</option>
            <option value={ADMIN_ROLE}>{ADMIN_ROLE}</option>
          </select>
        </div>
        <div>
          <label htmlFor="key-expires-in" className="text-sm font-medium">
            Expires
          </label>
          <select id="key-expires-in" name="expires-in" defaultValue="" className={`${inputClass} mt-1 max-w-full`}>
            {EXPIRIES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={primaryButtonClass}>
          Create key
        </button>
      </form>
    </section>
  );
}
