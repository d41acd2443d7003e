import type { Command } from "commander";
import { createWaitlist, listWaitlists, newWaitlistSchema, signupTotals } from "@/lib/domain/waitlists/queries";
import { toWaitlistResponse } from "@/lib/domain/waitlists/response";
import { emit, parseOptions, table, type JsonOption } from "../output";

export function registerWaitlistCommands(program: Command): void {
  const waitlists = program.command("waitlists").description("Create and list waitlists.");

  waitlists
    .command("create")
    .description("Create a waitlist.")
    .requiredOption("--name <name>", "name of the waitlist")
    .requiredOption("--website <url>", "its website, an absolute http or https URL")
    .option("--json", "print one JSON object to stdout")
    .action((options: { name: string; website: string } & JsonOption) => {
      const input = parseOptions(newWaitlistSchema, { name: options.name, website: options.website });
      const waitlist = toWaitlistResponse(createWaitlist(input));
      emit(options, waitlist, () => `Created waitlist ${waitlist.id} (${waitlist.name}, ${waitlist.website}).`);
    });

  waitlists
    .command("list")
    .description("List every waitlist with its number of signups, oldest first.")
    .option("--json", "print one JSON object to stdout")
    .action((options: JsonOption) => {
      const totals = signupTotals();
      const items = listWaitlists().items.map((row) => ({
        ...toWaitlistResponse(row),
        created_at: row.createdAt.toISOString(),
        signups: totals.get(row.id) ?? 0,
      }));
      emit(options, { waitlists: items }, () =>
        items.length === 0
          ? "No waitlists yet. Create one with: waitlists create --name <name> --website <url>"
          : table(
              ["ID", "NAME", "WEBSITE", "SIGNUPS", "CREATED"],
              items.map((item) => [item.id, item.name, item.website, String(item.signups), item.created_at]),
            ),
      );
    });
}
