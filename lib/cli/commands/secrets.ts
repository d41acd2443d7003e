import type { Command } from "commander";
import { getDb } from "@/db/client";
import { rotateSecretsKey } from "@/db/rotate-key";
import { emit, type JsonOption } from "../output";

export function registerSecretsCommands(program: Command): void {
  const secrets = program.command("secrets").description("The key the database's secrets (webhook secrets, signing keys) are encrypted under.");

  secrets
    .command("rotate-key")
    .description(
      "Re-encrypt every secret under a new key, in one transaction. With the key file (<DATABASE_PATH>.key) a new one replaces it and running servers follow; " +
        "with SECRETS_KEY, the new key is read from SECRETS_KEY_NEXT, and every process must then be restarted with SECRETS_KEY set to it. " +
        "Back the new key up: backups made from now on need it.",
    )
    .option("--json", "print one JSON object to stdout")
    .action(async (options: JsonOption) => {
      const result = await rotateSecretsKey(getDb());
      emit(options, result, () =>
        result.key === "SECRETS_KEY_NEXT"
          ? `Re-encrypted ${result.secrets} secrets under the key of SECRETS_KEY_NEXT. Now set SECRETS_KEY to it and restart every process (the server, its workers, cron jobs of the CLI).`
          : `Re-encrypted ${result.secrets} secrets under a new key, now in ${result.key}. Back it up: backups made from now on need it; older backups still need the old key.`,
      );
    });
}
