"use client";

import { useState, type FormEvent } from "react";
import { buttonClass, inputClass, mutedText } from "@/components/styles";

/** Said under the heading when no other text is given: the editor's case. */
const EDITOR_HINT = "The template above, edited or not, in the list's brand, with sample answers; its links work nowhere (no invite token is made). Sent now through the mail server, and recorded in the audit log.";

/**
 * "Send a test to me": the editor's template as it stands (saved or not) with sample data, sent now
 * to the address typed. Its own form, so that the editor's Save never checks the address; with
 * script it sends the editor's fields along (`editorFormId`) and shows the answer here, without it
 * (or without an editor: a bulk invitation's confirmation) the saved template.
 */
export function SendTestForm({ action, editorFormId, hint = EDITOR_HINT }: { action: string; editorFormId?: string; hint?: string }) {
  const [result, setResult] = useState<{ sent: boolean; message: string }>();
  const [sending, setSending] = useState(false);

  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const fields = new URLSearchParams();
    const editor = editorFormId === undefined ? null : document.getElementById(editorFormId);
    if (editor instanceof HTMLFormElement) {
      for (const [name, value] of new FormData(editor)) if (typeof value === "string") fields.append(name, value);
    }
    for (const [name, value] of new FormData(event.currentTarget)) if (typeof value === "string") fields.set(name, value);
    setSending(true);
    try {
      const response = await fetch(action, { method: "POST", body: fields });
      setResult({ sent: response.ok, message: (await response.text()).trim() });
    } catch {
      setResult({ sent: false, message: "The test email could not be sent: the server did not answer." });
    } finally {
      setSending(false);
    }
  }

  return (
    <form method="post" action={action} onSubmit={send} className="mt-6 grid max-w-2xl gap-2" aria-labelledby="send-test-heading">
      <h2 id="send-test-heading" className="text-lg font-semibold">
        Send a test to me
      </h2>
      <p id="send-test-hint" className={`text-sm ${mutedText}`}>
        {hint}
      </p>
      <div className="flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="test-to" className="text-sm font-medium">
            Your address
          </label>
          <input id="test-to" name="test_to" type="email" required maxLength={254} placeholder="you@example.com" autoComplete="email" aria-describedby="send-test-hint" className={`${inputClass} mt-1 w-72`} />
        </div>
        <button type="submit" disabled={sending} className={buttonClass}>
          {sending ? "Sending…" : "Send a test to me"}
        </button>
      </div>
      <p role="status" aria-live="polite" data-testid="send-test-result" className={`text-sm ${result && !result.sent ? "text-red-700 dark:text-red-300" : ""}`}>
        {result?.message}
      </p>
    </form>
  );
}
