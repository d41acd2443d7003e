import type { Command } from "commander";
import { AUDIT_ACTIONS, auditQuerySchema, listAudit } from "@/lib/domain/audit/log";
import { emit, parseOptions, table, type JsonOption } from "../output";

export function registerAuditCommands(program: Command): void {
  const audit = program.command("audit").description("Read the audit log: one row per write made from the dashboard or the CLI.");

  audit
    .command("list")
    .description("List audit rows, newest first: time, actor (a key's name, or cli), action, target and summary.")
    .option("--action <action>", `only this action (${AUDIT_ACTIONS.join(", ")})`)
    .option("--actor <actor>", "only this actor: a key's name or id, or cli")
    .option("--limit <n>", "the most rows to show (at most 1000)", "50")
    .option("--before <id>", "only rows older than this row id (the next page: the last id shown)")
    .option("--json", "print one JSON object to stdout")
    .action(async (options: { action?: string; actor?: string; limit: string; before?: string } & JsonOption) => {
      const query = parseOptions(auditQuerySchema, { action: options.action, actor: options.actor, limit: options.limit, before: options.before });
      const rows = await listAudit(query);
      const entries = rows.map((row) => ({
        id: row.id,
        at: row.at.toISOString(),
        actor: row.actor,
        actor_key_id: row.actorKeyId,
        action: row.action,
        target: row.target,
        summary: row.summary,
      }));
      emit(options, { entries }, () =>
        entries.length === 0
          ? "No audit rows match."
          : table(
              ["ID", "AT", "ACTOR", "ACTION", "TARGET", "SUMMARY"],
              entries.map((entry) => [String(entry.id), entry.at, entry.actor, entry.action, entry.target, entry.summary]),
            ),
      );
    });
}
