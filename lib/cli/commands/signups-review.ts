import type { Command } from "commander";
import { AppError } from "@/lib/core/errors";
import { FLAG_DECISION_NAMES, FLAG_DECISIONS, type FlagDecision } from "@/lib/domain/fraud/reasons";
import { decideFlags } from "@/lib/domain/fraud/review";
import { signupPublicId } from "@/lib/domain/signups/id";
import { collect } from "../join-options";
import { emit, type JsonOption } from "../output";

// `signups review approve|discount`: the review view's decision (lib/domain/fraud/review.ts) on the
// flagged signups of the listed addresses. `signups export --flag <reasons>` lists the ones waiting.

function register(review: Command, decision: FlagDecision): void {
  const { past } = FLAG_DECISIONS[decision];
  review
    .command(decision)
    .description(
      decision === "approve"
        ? "Approve flagged signups: their flags are cleared and a held referral counts for its referrer from now on. Audited; one signup.flag_approved event each."
        : "Discount flagged signups: their flags are closed and their referral never counts. Audited; one signup.flag_discounted event each.",
    )
    .requiredOption("--waitlist <id>", "id of the waitlist")
    .requiredOption("--email <address>", "a signup's whole address, in any case (repeat for more)", collect)
    .option("--json", "print one JSON object to stdout")
    .action(async (options: JsonOption & { waitlist: string; email: string[] }) => {
      if (options.email.some((email) => email.trim() === "")) throw new AppError("invalid_parameter", "invalid --email: must not be empty", "--email");
      const outcome = await decideFlags("cli", decision, { waitlistId: options.waitlist, emails: options.email });
      const result = { [past]: outcome.decided, skipped: outcome.skipped, ids: outcome.ids.map(signupPublicId) };
      emit(options, result, () => `${past[0]!.toUpperCase()}${past.slice(1)} ${outcome.decided} flagged signup${outcome.decided === 1 ? "" : "s"}.${outcome.skipped > 0 ? ` Skipped ${outcome.skipped} (no flag waiting).` : ""}`);
    });
}

export function registerSignupReviewCommands(signups: Command): void {
  const review = signups.command("review").description("Decide the review of signups flagged by the fraud rules (a disposable address, a look-alike of the referrer, a burst, the referral limit).");
  for (const decision of FLAG_DECISION_NAMES) register(review, decision);
}
