import { inputClass } from "@/components/styles";
import { MAX_WAITLIST_NAME, MAX_WEBSITE_LENGTH } from "@/lib/domain/waitlists/queries";

/** The fields of a waitlist: the home page's and /waitlists/new's create form, and the edit page. */
export function WaitlistFields({ name = "", website = "" }: { name?: string; website?: string }) {
  return (
    <div className="flex flex-wrap items-end gap-3">
      <label className="grid gap-1 text-sm font-medium">
        Name
        <input name="name" required maxLength={MAX_WAITLIST_NAME} defaultValue={name} autoComplete="off" className={`${inputClass} w-64`} />
      </label>
      <label className="grid gap-1 text-sm font-medium">
        Website
        <input name="website" type="url" required maxLength={MAX_WEBSITE_LENGTH} defaultValue={website} placeholder="https://example.com" className={`${inputClass} w-72`} />
      </label>
    </div>
  );
}
