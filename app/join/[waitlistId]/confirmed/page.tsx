import type { Metadata } from "next";
import { mutedText } from "@/components/styles";
import type { ConfirmOutcome } from "@/lib/domain/verification/confirm";
import { CONFIRM_OUTCOMES } from "./outcomes";
import { JoinCard } from "../../join-card";

export const metadata: Metadata = { title: { absolute: "Confirm your address" } };


/** What confirming did (/join/{id}/confirm/submit sends here with `?outcome=`). */
export default async function ConfirmedPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { outcome } = await searchParams;
  const shown = typeof outcome === "string" && Object.hasOwn(CONFIRM_OUTCOMES, outcome) ? CONFIRM_OUTCOMES[outcome as ConfirmOutcome] : CONFIRM_OUTCOMES.invalid;
  return (
    <JoinCard title={shown.title}>
      <p role="status" data-testid="confirm-outcome" className={`mt-3 ${mutedText}`}>
        {shown.text}
      </p>
    </JoinCard>
  );
}
