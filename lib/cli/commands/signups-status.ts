import type { Command } from "commander";
import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { STATUS_ACTIONS, type StatusAction } from "@/lib/domain/signups/status";
import { applyStatusAction, type StatusOutcome } from "@/lib/domain/signups/transitions";
import { getWaitlistOrThrow } from "@/lib/domain/waitlists/queries";
import { addFilterOptions, parseFilterOptions, type FilterOptions } from "../export-filter";
import { emit, parseOptions, type JsonOption } from "../output";

// `signups invite|reject|withdraw|restore`: an action of lib/domain/signups/status.ts on the oldest
// signups the export's filters select; `signups complete --email`: on one address.

const limitSchema = z.object({ limit: z.coerce.number().int().min(1).optional().describe("a whole number of 1 or more") });

type BulkOptions = FilterOptions & JsonOption & { waitlist: string; limit?: string; dryRun?: boolean };

const plural = (n: number) => `${n} signup${n === 1 ? "" : "s"}`;

function report(action: StatusAction, outcome: StatusOutcome, options: JsonOption & { dryRun?: boolean }): void {
  const { past } = STATUS_ACTIONS[action];
  if (options.dryRun) {
    const emails = outcome.signups.map((signup) => signup.email);
    emit(options, { [`would_${action}`]: outcome.changed, emails }, () => [`Would ${action} ${plural(outcome.changed)}${emails.length > 0 ? ":" : "."}`, ...emails].join("\n"));
    return;
  }
  const skipped = outcome.skipped > 0 ? { skipped: outcome.skipped } : {};
  emit(options, { [past]: outcome.changed, ...skipped }, () => `${past[0]!.toUpperCase()}${past.slice(1)} ${plural(outcome.changed)}.${outcome.skipped > 0 ? ` Skipped ${outcome.skipped}.` : ""}`);
}

function registerBulk(signups: Command, action: Exclude<StatusAction, "complete">): void {
  const { from, to } = STATUS_ACTIONS[action];
  const command = signups
    .command(action)
    .description(`Change the ${from} signups that the filters select (the export's filters), oldest first, to ${to}. Recorded in the audit log and the event log.`)
    .requiredOption("--waitlist <id>", "id of the waitlist");
  addFilterOptions(command)
    .option("--limit <n>", "at most this many, the oldest first (default: every one selected)")
    .option("--dry-run", "change nothing: list the signups that would change")
    .option("--json", "print one JSON object to stdout")
    .action(async (options: BulkOptions) => {
      const filter = parseFilterOptions(options);
      const { limit } = parseOptions(limitSchema, { limit: options.limit });
      const waitlist = await getWaitlistOrThrow(options.waitlist);
      // SQLite reads LIMIT -1 as no limit.
      const selection = { scope: { ...filter, waitlistId: waitlist.id }, limit: limit ?? -1 };
      report(action, await applyStatusAction("cli", { action, selection, dryRun: options.dryRun, withSignups: options.dryRun }), options);
    });
}

export function registerSignupStatusCommands(signups: Command): void {
  for (const action of ["invite", "reject", "withdraw", "restore"] as const) registerBulk(signups, action);
  signups
    .command("complete")
    .description("Mark an invited signup completed: the invitation was used, the person is in.")
    .requiredOption("--waitlist <id>", "id of the waitlist")
    .requiredOption("--email <address>", "the signup's whole address, in any case")
    .option("--dry-run", "change nothing: say whether it would change")
    .option("--json", "print one JSON object to stdout")
    .action(async (options: JsonOption & { waitlist: string; email: string; dryRun?: boolean }) => {
      if (options.email.trim() === "") throw new AppError("invalid_parameter", "invalid --email: must not be empty", "--email");
      const waitlist = await getWaitlistOrThrow(options.waitlist);
      const selection = { waitlistId: waitlist.id, emails: [options.email] };
      report("complete", await applyStatusAction("cli", { action: "complete", selection, dryRun: options.dryRun, withSignups: options.dryRun }), options);
    });
}
