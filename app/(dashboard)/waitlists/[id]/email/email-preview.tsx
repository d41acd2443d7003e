import { cardClass, mutedText } from "@/components/styles";

/** The email one signup would get, as rendered by the domain (nothing is sent). */
export function EmailPreview({ email, draft }: { email: { to: string; subject: string; text: string }; draft: boolean }) {
  return (
    <section aria-labelledby="preview-heading" className={`${cardClass} mt-6 max-w-2xl p-4`} data-testid="email-preview">
      <h2 id="preview-heading" className="text-lg font-semibold">
        Preview {draft ? "of the edited template" : "of the saved template"}
      </h2>
      <dl className="mt-3 grid grid-cols-[5rem_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className={mutedText}>To</dt>
        <dd className="break-all" data-testid="preview-to">
          {email.to}
        </dd>
        <dt className={mutedText}>Subject</dt>
        <dd className="break-words" data-testid="preview-subject">
          {email.subject}
        </dd>
      </dl>
      <pre className="mt-3 whitespace-pre-wrap break-words rounded-md bg-zinc-50 p-3 font-sans text-sm dark:bg-zinc-950" data-testid="preview-text">
        {email.text}
      </pre>
    </section>
  );
}
