import Link from "next/link";
import { linkClass } from "@/components/styles";
import { flagsOf } from "@/lib/domain/fraud/flags";
import { FLAG_REASON_LABELS } from "@/lib/domain/fraud/reasons";

const DECISION_WORDS = { pending: "waiting for review", approved: "approved", discounted: "discounted" } as const;

/** The fraud rules that flagged this signup and what was decided (lib/domain/fraud). */
export async function SignupFlags({ signupId, waitlistId }: { signupId: number; waitlistId: string }) {
  const flags = await flagsOf(signupId);
  if (flags.length === 0) return <span data-testid="signup-flags">None</span>;
  return (
    <span data-testid="signup-flags">
      {flags.map(({ reason, decision }) => `${FLAG_REASON_LABELS[reason]} (${DECISION_WORDS[decision]})`).join(", ")}
      {flags.some(({ decision }) => decision === "pending") ? (
        <>
          {" "}
          <Link href={`/waitlists/${waitlistId}/review`} className={linkClass}>
            Review
          </Link>
        </>
      ) : null}
    </span>
  );
}
