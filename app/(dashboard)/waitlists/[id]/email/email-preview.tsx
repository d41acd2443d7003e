import { cardClass, mutedText } from "@/components/styles";

/** The email one signup would get, as rendered by the domain (nothing is sent): its HTML as a mail client shows it (sandboxed: no script, no form, no link leaves the frame), and its text. */
export function EmailPreview({ email, draft }: { email: { to: string; subject: string; text: string; html?: string }; draft: boolean }) {
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
      {email.html === undefined ? null : (
        <>
          <h3 className="mt-4 text-sm font-medium">HTML (in the list&apos;s brand)</h3>
          <iframe title="The email as HTML" sandbox="" srcDoc={email.html} className="mt-2 h-[28rem] w-full rounded-md border border-zinc-300 bg-white dark:border-zinc-700" data-testid="preview-html" />
          <h3 className="mt-4 text-sm font-medium">Plain text (sent beside it)</h3>
        </>
      )}
      <pre className="mt-3 whitespace-pre-wrap break-words rounded-md bg-zinc-50 p-3 font-sans text-sm dark:bg-zinc-950" data-testid="preview-text">
        {email.text}
      </pre>
    </section>
  );
}
