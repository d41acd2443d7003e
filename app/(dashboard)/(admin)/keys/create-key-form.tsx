"use client";

import { useActionState } from "react";
import { cardClass, inputClass, mutedText, primaryButtonClass } from "@/components/styles";
import { createKey, type CreateKeyState } from "./actions";
import { NewKeyBanner } from "./new-key-banner";

// Values of the CLI's --expires-in (lib/domain/duration.ts): the form posts them as they are.
const EXPIRIES = [
  ["", "Never"],
  ["1d", "In 1 day"],
  ["7d", "In 7 days"],
  ["30d", "In 30 days"],
  ["90d", "In 90 days"],
  ["365d", "In 1 year"],
] as const;

/** The create form (server action createKey); the new key comes back in the action's response and is shown once. The role names and the name's longest length come as props, so that no domain module reaches the browser. */
export function CreateKeyForm({ viewRole, adminRole, joinRole, redeemRole, nameMaxLength }: { viewRole: string; adminRole: string; joinRole: string; redeemRole: string; nameMaxLength: number }) {
  const [state, action, isPending] = useActionState<CreateKeyState, FormData>(createKey, {});
  return (
    <section aria-labelledby="create-key-heading" className={`${cardClass} mt-8 max-w-xl p-4`}>
      <h2 id="create-key-heading" className="text-lg font-semibold">
        Create a key
      </h2>
      {state.created ? <NewKeyBanner created={state.created} /> : null}
      <form action={action} className="mt-3 space-y-3">
        <div>
          <label htmlFor="key-name" className="text-sm font-medium">
            Name
          </label>
          <p id="key-name-hint" className={`text-xs ${mutedText}`}>
            Who or what uses it, such as “reporting script” or “Ada”.
          </p>
          <input id="key-name" name="name" required maxLength={nameMaxLength} autoComplete="off" aria-describedby="key-name-hint" className={`${inputClass} mt-1 w-full`} />
        </div>
        <div>
          <label htmlFor="key-role" className="text-sm font-medium">
            Role
          </label>
          <p id="key-role-hint" className={`text-xs ${mutedText}`}>
            {viewRole}: read the API, browse the dashboard. {adminRole}: that, and make changes in the dashboard. {joinRole}: only put people on a waitlist through the API. {redeemRole}: only look at and redeem invite links, and complete signups, through the API.
          </p>
          <select id="key-role" name="role" defaultValue={viewRole} aria-describedby="key-role-hint" className={`${inputClass} mt-1 max-w-full`}>
            <option value={viewRole}>{viewRole}</option>
            <option value={adminRole}>{adminRole}</option>
            <option value={joinRole}>{joinRole}</option>
            <option value={redeemRole}>{redeemRole}</option>
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
        {state.error ? (
          <p id="create-key-error" role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
            {state.error}
          </p>
        ) : null}
        <button type="submit" className={primaryButtonClass} disabled={isPending}>
          {isPending ? "Creating…" : "Create key"}
        </button>
      </form>
    </section>
  );
}
