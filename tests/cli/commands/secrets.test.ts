import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliSandbox, type CliSandbox } from "../run-cli";

// The secrets key from the operator's side: a backup says it does not hold it, and `secrets
// rotate-key` re-encrypts every secret under a new one, after which the CLI still opens them.

describe("secrets", () => {
  let cli: CliSandbox;
  beforeAll(() => (cli = cliSandbox()));
  afterAll(() => cli.remove());

  it("db backup says the key is not in the copy, and where it is", () => {
    cli.json("waitlists", "create", "--name", "Keyed", "--website", "https://example.com");
    const destination = join(cli.dir, "copy.db");
    expect(cli.json("db", "backup", destination)).toMatchObject({ path: destination, secrets_key_not_included: `${cli.databasePath}.key` });
    const text = cli.run("db", "backup", join(cli.dir, "copy-2.db"));
    expect(text.status).toBe(0);
    expect(text.stdout).toContain(`their key is not in it (${cli.databasePath}.key)`);
  });

  it("rotate-key writes a new 0600 key file and re-encrypts every secret under it; the CLI still opens them", () => {
    const endpoint = cli.json<{ id: string; secret: string }>("webhooks", "add", "--url", "https://hooks.example.com/in");
    const keyFile = `${cli.databasePath}.key`;
    const before = readFileSync(keyFile);
    const stored = () => cli.rows("webhook_endpoints").map((row) => row.secret);
    const sealedBefore = stored();
    expect(sealedBefore[0]).toMatch(/^sealed:v1:/);
    const rotated = cli.json<{ secrets: number; key: string }>("secrets", "rotate-key");
    expect(rotated).toEqual({ secrets: expect.any(Number), key: keyFile });
    expect(rotated.secrets).toBeGreaterThanOrEqual(2);
    expect(readFileSync(keyFile).equals(before)).toBe(false);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(stored()).not.toEqual(sealedBefore);
    // The endpoint's secret still opens: rotating it again works, and listing never shows it.
    expect(cli.json<{ secret: string }>("webhooks", "rotate-secret", endpoint.id).secret).toMatch(/^whsec_/);
    expect(cli.run("webhooks", "list").stdout).not.toContain("whsec_");
  });
});
