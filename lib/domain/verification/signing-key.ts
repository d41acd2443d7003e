import "server-only";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { appSecrets } from "@/db/schema";
import { appSecretAad, openBlob, sealBlob } from "@/db/sealed-secret";
import { preparedOnce } from "@/lib/store/statements";
import { databaseLocation } from "@/lib/store/connection";

/** The keys the join page signs with, each made on first use (32 random bytes) and kept in app_secrets beside the audit's. */
export type SigningKeyName = "link_signing_key" | "challenge_signing_key";

/**
 * This database's key of that name. Kept in the database, not the environment, like the audit's
 * (migration 0005): every process and worker reading one file agrees on it with nothing to configure.
 * Stored encrypted under the master key, which lives outside the database (db/sealed-secret.ts): a
 * copy of the file alone cannot sign a link. The first caller writes it; a concurrent first caller's
 * insert is ignored and both read the one that won.
 */
export async function signingKey(name: SigningKeyName, db: AppDatabase = getDb()): Promise<Buffer> {
  const read = preparedOnce(db, `signingKey.${name}`, () => db.select({ value: appSecrets.value }).from(appSecrets).where(eq(appSecrets.name, name)).prepare());
  const found = await read.get();
  if (found) return openBlob(databaseLocation(db), found.value, appSecretAad(name));
  await db.insert(appSecrets).values({ name, value: sealBlob(databaseLocation(db), randomBytes(32), appSecretAad(name)) }).onConflictDoNothing().run();
  return openBlob(databaseLocation(db), (await read.get())!.value, appSecretAad(name));
}
