import { WaitlistFields } from "@/components/waitlist-fields";
import { cardClass, mutedText, primaryButtonClass } from "@/components/styles";

export function NewWaitlistForm() {
  return (
    <details className={`${cardClass} mt-4 px-4 py-3`}>
      <summary className="cursor-pointer text-sm font-medium">New waitlist</summary>
      <form method="post" action="/waitlists/create" className="mt-3 flex flex-wrap items-end gap-3">
        <WaitlistFields />
        <button type="submit" className={primaryButtonClass}>
          Create waitlist
        </button>
      </form>
      <p className={`mt-2 text-xs ${mutedText}`}>The website must be an absolute http or https URL.</p>
    </details>
  );
}
