import { linkClass, mutedText } from "@/components/styles";
import type { ConfirmOutcome } from "@/lib/domain/verification/confirm";
import { JoinCard } from "../../join-card";

/** What a confirmation link did, or why it cannot: the words of the confirmation pages. */
const CONFIRM_OUTCOMES: Record<ConfirmOutcome, { title: string; text: string }> = {
  confirmed: { title: "Your address is confirmed", text: "Thank you: your place on the waitlist is confirmed." },
  already: { title: "Already confirmed", text: "This address was already confirmed: nothing else to do." },
  expired: { title: "This link has expired", text: "Confirmation links work for 7 days. Join again with the same address to get a new one." },
  invalid: { title: "This link does not work", text: "It may have been cut short by your email program: copy the whole link from the email." },
  gone: { title: "This signup no longer exists", text: "It was removed from the waitlist." },
};

/**
 * The outcome of a confirmation (`outcome` from a URL: anything unknown reads as an invalid link), and
 * with `page` (the confirmation's own /joined link, given only to whoever held the confirmation link) a
 * link to the person's page.
 */
export function ConfirmOutcomeCard({ outcome, page, personPage }: { outcome: string | undefined; page?: string; personPage?: string }) {
  const shown = outcome !== undefined && Object.hasOwn(CONFIRM_OUTCOMES, outcome) ? CONFIRM_OUTCOMES[outcome as ConfirmOutcome] : CONFIRM_OUTCOMES.invalid;
  return (
    <JoinCard title={shown.title}>
      <p role="status" data-testid="confirm-outcome" className={`mt-3 ${mutedText}`}>
        {shown.text}
      </p>
      {page ? (
        <p className="mt-4 text-sm">
          <a href={page} className={linkClass}>
            See your place in line and your referral link
          </a>
        </p>
      ) : null}
      {personPage ? (
        <p className="mt-2 text-sm">
          <a href={personPage} className={linkClass}>
            Open your own page: your answers, your data, leaving the list
          </a>
        </p>
      ) : null}
    </JoinCard>
  );
}
