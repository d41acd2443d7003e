import type { Metadata } from "next";
import { mutedText } from "@/components/styles";
import type { ConfirmOutcome } from "@/lib/domain/verification/confirm";
import { JoinCard } from "../../join-card";

export const metadata: Metadata = { title: { absolute: "Confirm your address" } };

const OUTCOMES: Record<ConfirmOutcome, { title: string; text: string }> = {
  confirmed: { title: "Your address is confirmed", text: "Thank you: your place on the waitlist is confirmed." },
  already: { title: "Already confirmed", text: "This address was already confirmed: nothing else to do." },
  expired: { title: "This link has expired", text: "Confirmation links work for 7 days. Join again with the same address to get a new one." },
  invalid: { title: "This link does not work", text: "It may have been cut short by your email program: copy the whole link from the email." },
  gone: { title: "This signup no longer exists", text: "It was removed from the waitlist." },
};

/** What following a confirmation link did (/join/{id}/confirm sends here with `?outcome=`). */
export default async function ConfirmedPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { outcome } = await searchParams;
  const shown = typeof outcome === "string" && Object.hasOwn(OUTCOMES, outcome) ? OUTCOMES[outcome as ConfirmOutcome] : OUTCOMES.invalid;
  return (
    <JoinCard title={shown.title}>
      <p role="status" data-testid="confirm-outcome" className={`mt-3 ${mutedText}`}>
        {shown.text}
      </p>
    </JoinCard>
  );
}
