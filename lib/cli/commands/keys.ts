import type { Command } from "commander";
import { listApiKeys, ROLES, VIEW_ROLE } from "@/lib/domain/keys/queries";
import { expiryFrom, newApiKeyOptionsSchema } from "@/lib/domain/keys/input";
import { resolveApiKeyReference } from "@/lib/domain/keys/reference";
import { issueApiKey, revokeApiKeyAs } from "@/lib/domain/keys/manage";
import { CLI_ACTOR } from "@/lib/domain/audit/log";
import { emit, parseOptions, table, type JsonOption } from "../output";

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function registerKeyCommands(program: Command): void {
  const keys = program.command("keys").description("Issue, list and revoke API keys.");

  keys
    .command("create")
    .description("Create an API key and print it. The key is shown only this once: only its hash is stored. Audited (actor cli).")
    .requiredOption("--name <name>", "a name that says who or what uses the key")
    .option("--role <role>", `a role to grant, repeatable (${ROLES.join(", ")}; default ${VIEW_ROLE})`, collect)
    .option("--expires-in <duration>", "expire the key after this long, such as 90m, 12h or 30d (default: never)")
    .option("--json", "print one JSON object to stdout")
    .action(async (options: { name: string; role?: string[]; expiresIn?: string } & JsonOption) => {
      const input = parseOptions(newApiKeyOptionsSchema, { name: options.name, role: options.role ?? [VIEW_ROLE], "expires-in": options.expiresIn });
      const created = await issueApiKey({ name: input.name, roles: input.role, expiresAt: expiryFrom(input["expires-in"]) }, CLI_ACTOR);
      const result = { id: created.id, name: created.name, key: created.key, roles: created.roles, expires_at: created.expires_at };
      emit(options, result, () =>
        [
          `Created API key ${created.id} (${created.name}), roles: ${created.roles.join(", ")}, expires: ${created.expires_at ?? "never"}.`,
          "Copy the key now; it cannot be shown again:",
          "",
          `  ${created.key}`,
        ].join("\n"),
      );
    });

  keys
    .command("list")
    .description("List API keys: prefix, roles and dates (never the keys themselves).")
    .option("--json", "print one JSON object to stdout")
    .action(async (options: JsonOption) => {
      const items = await listApiKeys();
      emit(options, { keys: items }, () =>
        items.length === 0
          ? "No API keys yet. Create one with: keys create --name <name>"
          : table(
              ["ID", "NAME", "PREFIX", "ROLES", "STATUS", "CREATED", "LAST USED", "EXPIRES", "REVOKED"],
              items.map((key) => [
                key.id,
                key.name,
                `${key.prefix}…`,
                key.roles.join(","),
                key.status,
                key.created_at,
                key.last_used_at ?? "never",
                key.expires_at ?? "never",
                key.revoked_at ?? "-",
              ]),
            ),
      );
    });

  keys
    .command("revoke")
    .description("Revoke an API key: it stops working at once (and so do its dashboard sessions). Revoking twice is harmless. Audited (actor cli).")
    .argument("<key>", "the key's id, its prefix as keys list shows it (when no other key has it), or the whole key")
    .option("--json", "print one JSON object to stdout")
    .action(async (reference: string, options: JsonOption) => {
      const key = await resolveApiKeyReference(reference);
      const { revoked } = await revokeApiKeyAs(key.id, CLI_ACTOR);
      const result = { id: key.id, name: key.name, prefix: key.prefix, revoked: true };
      emit(options, result, () => `${revoked ? "Revoked" : "Already revoked:"} API key ${key.id} (${key.name}, ${key.prefix}…).`);
    });
}
