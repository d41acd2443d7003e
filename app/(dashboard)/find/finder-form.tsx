import Form from "next/form";
import { buttonClass, inputClass } from "@/components/styles";
import { MAX_EMAIL_LENGTH } from "@/lib/domain/signups/email-address";

/** The finder's own search field, holding the text looked up (the header has a smaller one). */
export function FinderForm({ value }: { value: string }) {
  return (
    <Form action="/find" role="search" aria-label="Find a person on this page" className="mt-4 flex max-w-xl gap-2">
      <label htmlFor="finder-email" className="sr-only">
        Email address or part of one
      </label>
      <input
        id="finder-email"
        type="search"
        name="email"
        defaultValue={value}
        maxLength={MAX_EMAIL_LENGTH}
        placeholder="jane@acme.com, @acme.com, jane…"
        autoComplete="off"
        spellCheck={false}
        className={`${inputClass} min-w-0 flex-1`}
      />
      <button type="submit" className={buttonClass}>
        Find
      </button>
    </Form>
  );
}
