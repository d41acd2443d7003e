"use client";

import { useActionState } from "react";
import { cardClass, inputClass, mutedText, primaryButtonClass } from "@/components/styles";
import { addWebhook, type SecretState } from "./actions";
import { ErrorAlert } from "./error-alert";
import { SecretBanner } from "./secret-banner";

/** The add form (server action addWebhook); the secret comes back in the action's response and is shown once. The event types and the URL's longest length come as props, so that no domain module reaches the browser. */
export function AddEndpointForm({ eventTypes, urlMaxLength }: { eventTypes: readonly string[]; urlMaxLength: number }) {
  const [state, action, isPending] = useActionState<SecretState, FormData>(addWebhook, {});
  return (
    <section aria-labelledby="add-endpoint-heading" className={`${cardClass} mt-8 max-w-xl p-4`}>
      <h2 id="add-endpoint-heading" className="text-lg font-semibold">
        Add endpoint
      </h2>
      {state.shown ? <SecretBanner heading="Endpoint added" url={state.shown.url} secret={state.shown.secret} /> : null}
      <form action={action} className="mt-3 space-y-3">
        <div>
          <label htmlFor="endpoint-url" className="text-sm font-medium">
            URL
          </label>
          <input id="endpoint-url" name="url" type="url" required maxLength={urlMaxLength} autoComplete="off" placeholder="https://example.com/webhooks" className={`${inputClass} mt-1 w-full`} />
        </div>
        <div>
          <label htmlFor="endpoint-waitlist" className="text-sm font-medium">
            Waitlist id (optional)
          </label>
          <p id="endpoint-waitlist-hint" className={`text-xs ${mutedText}`}>
            Empty: the events of every waitlist.
          </p>
          <input id="endpoint-waitlist" name="waitlist" maxLength={100} autoComplete="off" spellCheck={false} aria-describedby="endpoint-waitlist-hint" className={`${inputClass} mt-1 w-full font-mono`} />
        </div>
        <fieldset>
          <legend className="text-sm font-medium">Event types</legend>
          <p className={`text-xs ${mutedText}`}>None checked: every type, including those added later.</p>
          <div className="mt-2 grid gap-x-4 gap-y-2 sm:grid-cols-2">
            {eventTypes.map((type) => (
              <label key={type} className="flex items-center gap-2 text-sm">
                <input type="checkbox" name="events" value={type} className="size-4 accent-blue-700" />
                <code className="font-mono text-xs">{type}</code>
              </label>
            ))}
          </div>
        </fieldset>
        <ErrorAlert id="add-endpoint-error" message={state.error} />
        <button type="submit" className={primaryButtonClass} disabled={isPending}>
          {isPending ? "Adding…" : "Add endpoint"}
        </button>
      </form>
    </section>
  );
}
