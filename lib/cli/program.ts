import { Command } from "commander";
import { registerAuditCommands } from "./commands/audit";
import { registerDbCommands } from "./commands/db";
import { registerEmailCommands } from "./commands/emails";
import { registerKeyCommands } from "./commands/keys";
import { registerSecretsCommands } from "./commands/secrets";
import { registerSignupCommands } from "./commands/signups";
import { registerWaitlistCommands } from "./commands/waitlists";
import { registerWebhookCommands } from "./commands/webhooks";

/** The CLI's commands. Errors are thrown (exitOverride), so main.ts decides output and exit codes. */
export function buildProgram(): Command {
  const program = new Command()
    .name("waitlist")
    .description("Administer the Waitlist Admin database (DATABASE_PATH, default ./data/waitlist.db).")
    .exitOverride()
    .configureOutput({
      // Usage errors as one line, with a pointer to the help.
      outputError: (message, write) => write(`${message.replace(/\s*\n\s*/g, " ").trim()} (see --help)\n`),
    });
  registerWaitlistCommands(program);
  registerSignupCommands(program);
  registerKeyCommands(program);
  registerWebhookCommands(program);
  registerEmailCommands(program);
  registerAuditCommands(program);
  registerDbCommands(program);
  registerSecretsCommands(program);
  return program;
}
