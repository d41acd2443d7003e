"use client";

import { useActionState } from "react";
import { cardClass, inputClass, mutedText, primaryButtonClass } from "@/components/styles";
import { addWebhook, type SecretState } from "./actions";
import { ErrorAlert } from "./error-alert";
import { SecretBanner } from "./secret-banner";

/** A waitlist the endpoint can be limited to: its id, and the name it is picked by. */
export interface WaitlistChoice {
  id: string;
  name: string;
}

/** Names that more than one waitlist has get the id's first characters beside them, so every choice reads differently. */
function choiceLabels(waitlists: readonly WaitlistChoice[]): Map<string, string> {
  const named = new Map<string, number>();
  for (const { name } of waitlists) named.set(name, (named.get(name) ?? 0) + 1);
  return new Map(waitlists.map(({ id, name }) => [id, named.get(name)! > 1 ? `${name} (${id.slice(0, 8)})` : name]));
}

/** The add form (server action addWebhook); the secret comes back in the action's response and is shown once. The event types, the waitlists and the URL's longest length come as props, so that no domain module reaches the browser. */
export function AddEndpointForm({ eventTypes, waitlists, urlMaxLength }: { eventTypes: readonly string[]; waitlists: readonly WaitlistChoice[]; urlMaxLength: number }) {
  const labels = choiceLabels(waitlists);
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
            Waitlist
          </label>
          <p id="endpoint-waitlist-hint" className={`text-xs ${mutedText}`}>
            The events of one waitlist, or of every one (those added later included).
          </p>
          <select id="endpoint-waitlist" name="waitlist" defaultValue="" aria-describedby="endpoint-waitlist-hint" className={`${inputClass} mt-1 w-full`}>
            <option value="">Every waitlist</option>
            {waitlists.map(({ id }) => (
              <option key={id} value={id}>
                {labels.get(id)}
              </option>
            ))}
          </select>
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
