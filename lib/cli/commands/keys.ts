import type { Command } from "commander";
import { z } from "zod";
import { createApiKey, listApiKeys, revokeApiKey, ROLES, VIEW_ROLE } from "@/lib/domain/api-keys";
import { AppError } from "@/lib/core/errors";
import { durationSchema } from "../duration";
import { emit, parseOptions, table, type JsonOption } from "../output";

const roleSchema = z.enum(ROLES, { error: (issue) => `unknown role ${JSON.stringify(issue.input)} (known roles: ${ROLES.join(", ")})` });

const createKeySchema = z.object({
  name: z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters"),
  role: z.array(roleSchema).min(1),
  "expires-in": durationSchema.optional(),
});

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function registerKeyCommands(program: Command): void {
  const keys = program.command("keys").description("Issue, list and revoke API keys.");

  keys
    .command("create")
    .description("Create an API key and print it. The key is shown only this once: only its hash is stored.")
    .requiredOption("--name <name>", "a name that says who or what uses the key")
    .option("--role <role>", `a role to grant, repeatable (${ROLES.join(", ")}; default ${VIEW_ROLE})`, collect)
    .option("--expires-in <duration>", "expire the key after this long, such as 90m, 12h or 30d (default: never)")
    .option("--json", "print one JSON object to stdout")
    .action((options: { name: string; role?: string[]; expiresIn?: string } & JsonOption) => {
      const input = parseOptions(createKeySchema, { name: options.name, role: options.role ?? [VIEW_ROLE], "expires-in": options.expiresIn });
      const expiresInMs = input["expires-in"];
      const created = createApiKey({
        name: input.name,
        roles: input.role,
        expiresAt: expiresInMs === undefined ? null : new Date(Date.now() + expiresInMs),
      });
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
    .action((options: JsonOption) => {
      const items = listApiKeys();
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
    .description("Revoke an API key: it stops working at once. Revoking twice is harmless.")
    .argument("<id>", "id of the key (see keys list)")
    .option("--json", "print one JSON object to stdout")
    .action((id: string, options: JsonOption) => {
      if (!revokeApiKey(id)) throw new AppError("not_found", `no API key has the id ${id}`);
      emit(options, { id, revoked: true }, () => `Revoked API key ${id}.`);
    });
}
