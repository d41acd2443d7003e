import { inputClass } from "@/components/styles";

/** The fields of a waitlist: the home page's and /waitlists/new's create form, and the edit page. */
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
