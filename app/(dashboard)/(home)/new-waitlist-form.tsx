import { cardClass, inputClass, mutedText, primaryButtonClass } from "@/components/styles";

/** The fields of a new waitlist, posted to /waitlists/create (admins only). */
export function WaitlistFields({ name = "", website = "" }: { name?: string; website?: string }) {
  return (
    <div className="flex flex-wrap items-end gap-3">
      <label className="grid gap-1 text-sm font-medium">
        Name
        <input name="name" required maxLength={200} defaultValue={name} autoComplete="off" className={`${inputClass} w-64`} />
      </label>
      <label className="grid gap-1 text-sm font-medium">
        Website
        <input name="website" type="url" required maxLength={2048} defaultValue={website} placeholder="https://example.com" className={`${inputClass} w-72`} />
      </label>
    </div>
  );
}

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
