import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { AppDatabase } from "@/db/client";
import { openPostgres } from "@/db/pg/client";
import { rotateSecretsKey } from "@/db/rotate-key";
import { appSecretAad, forgetKeys, openWith } from "@/db/sealed-secret";
import { signingKey } from "@/lib/domain/verification/signing-key";
import { addEndpoint, enabledEndpointsForSending } from "@/lib/domain/webhooks/endpoints";
import { startPostgres, type PostgresServer } from "@/tests/support/pg-server";

// `secrets rotate-key` on PostgreSQL, where the key is always SECRETS_KEY (no key file beside a
// server's database): every secret re-encrypted under SECRETS_KEY_NEXT in one transaction, and
// readable once the processes run with SECRETS_KEY set to it.

let server: PostgresServer;
let db: AppDatabase;
const saved = { SECRETS_KEY: process.env.SECRETS_KEY, SECRETS_KEY_NEXT: process.env.SECRETS_KEY_NEXT };
const oldKey = randomBytes(32).toString("hex");
const newKey = randomBytes(32).toString("hex");

function useKeys(current: string, next?: string) {
  process.env.SECRETS_KEY = current;
  if (next === undefined) delete process.env.SECRETS_KEY_NEXT;
  else process.env.SECRETS_KEY_NEXT = next;
  forgetKeys();
}

beforeAll(async () => {
  server = await startPostgres();
  useKeys(oldKey);
  db = await openPostgres(server.url);
});

afterAll(async () => {
  await db.$engine.close();
  await server.stop();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  forgetKeys();
});

const storedSecrets = async () => (await db.$engine.prepare("SELECT name, value FROM app_secrets ORDER BY name").all<{ name: string; value: Buffer }>([])).map((row) => row.value.toString("hex"));

it("re-encrypts every secret under SECRETS_KEY_NEXT, which opens them once it is SECRETS_KEY; the old key no longer does", async () => {
  const link = await signingKey("link_signing_key", db);
  const endpoint = await addEndpoint("cli", { url: "https://hooks.example.com/in" }, db);
  const before = await storedSecrets();

  useKeys(oldKey, newKey);
  expect(await rotateSecretsKey(db)).toEqual({ secrets: before.length + 1, key: "SECRETS_KEY_NEXT" });
  const after = await storedSecrets();
  expect(after).toHaveLength(before.length);
  after.forEach((value, index) => expect(value).not.toBe(before[index]));

  useKeys(newKey);
  expect((await signingKey("link_signing_key", db)).equals(link)).toBe(true);
  expect((await enabledEndpointsForSending(db))[0]!.secret).toBe(endpoint.secret);

  const sealedLink = (await db.$engine.prepare("SELECT value FROM app_secrets WHERE name = 'link_signing_key'").get<{ value: Buffer }>([]))!.value;
  expect(openWith(Buffer.from(newKey, "hex"), sealedLink, appSecretAad("link_signing_key"))?.equals(link)).toBe(true);
  expect(openWith(Buffer.from(oldKey, "hex"), sealedLink, appSecretAad("link_signing_key"))).toBeUndefined();
});

it("without SECRETS_KEY_NEXT it says where the new key goes, and changes nothing", async () => {
  useKeys(newKey);
  const before = await storedSecrets();
  await expect(rotateSecretsKey(db)).rejects.toThrow(/SECRETS_KEY_NEXT/);
  expect(await storedSecrets()).toEqual(before);
});
