import { buttonClass, inputClass, mutedText } from "@/components/styles";
import { MAX_EMAIL_LENGTH } from "@/lib/domain/signups/email-address";
import { isLinkRequestAnswer, LINK_REQUEST_ANSWERS } from "@/lib/join/person-link";

/** "Already joined? Get your link": asks for a new link to one's own page by address (POST /join/{id}/link); open with its answer after it. */
export function GetLinkForm({ waitlistId, answer }: { waitlistId: string; answer: unknown }) {
  const said = isLinkRequestAnswer(answer) ? LINK_REQUEST_ANSWERS[answer] : undefined;
  return (
    <details id="get-link" open={said !== undefined} className="mt-6 border-t border-zinc-200 pt-4 text-sm dark:border-zinc-800">
      <summary className="cursor-pointer font-medium">Already joined? Get your link</summary>
      <p className={`mt-2 ${mutedText}`}>We&rsquo;ll email a link to your own page: your place in line, your referral link and your answers.</p>
      {said ? (
        <p role="status" data-testid="link-answer" className="mt-2">
          {said}
        </p>
      ) : null}
      <form method="post" action={`/join/${waitlistId}/link`} className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <label htmlFor="link-email" className="font-medium">
            The address you joined with
          </label>
          <input id="link-email" name="email" type="email" required autoComplete="email" maxLength={MAX_EMAIL_LENGTH} className={`${inputClass} w-full text-base sm:text-sm`} />
        </div>
        <button type="submit" className={`${buttonClass} py-2`}>
          Email me my link
        </button>
      </form>
    </details>
  );
}
