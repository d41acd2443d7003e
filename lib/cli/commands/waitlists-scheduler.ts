import type { Command } from "commander";
import { AppError } from "@/lib/core/errors";
import { describeDueWork, runDueWork } from "@/lib/domain/scheduler/due-work";
import { emit, type JsonOption } from "../output";

// `waitlists scheduler run [--at <instant>]`: the server's scheduler work (expiries, reminders), once,
// as of now or of any instant: an operator's "run what is due now", and the tests' clock.

/** An ISO 8601 instant with its zone ("2026-12-01T09:00:00Z"), in epoch ms; refused otherwise. */
export function instantOf(text: string, option: string): number {
  const trimmed = text.trim();
  const at = Date.parse(trimmed);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(trimmed) || Number.isNaN(at)) {
    throw new AppError("invalid_parameter", `invalid ${option}: must be an ISO 8601 instant with its zone, such as 2026-12-01T09:00:00Z (got ${JSON.stringify(text)})`, option);
  }
  return at;
}

export function registerSchedulerCommands(waitlists: Command): void {
  const scheduler = waitlists.command("scheduler").description("The scheduler the server runs every 15 s: invitations that expire, reminders before they do.");
  scheduler
    .command("run")
    .description("Run the scheduler's due work once, as of now or of --at, and print what it did. Audited (actor scheduler).")
    .option("--at <instant>", "the instant to run it as of, ISO 8601 with its zone (2026-12-01T09:00:00Z); now by default")
    .option("--json", "print one JSON object to stdout")
    .action(async (options: { at?: string } & JsonOption) => {
      const done = await runDueWork(options.at === undefined ? Date.now() : instantOf(options.at, "--at"));
      emit(options, done, () => describeDueWork(done));
    });
}
