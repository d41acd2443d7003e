import "server-only";
import { eq, sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { joinLogos } from "@/db/schema";
import { formatBytes } from "@/lib/core/bytes";
import { AppError } from "@/lib/core/errors";
import { preparedOnce } from "@/lib/store/statements";
import { writeTransaction } from "@/lib/store/transaction";
import { recordAudit, type AuditActor } from "../audit/log";
import { getWaitlistOrThrow } from "../waitlists/queries";
import { sniffImage, type LogoType } from "./image-type";

// A waitlist's join page logo (table join_logos, migration 0019): kept in the database, served by
// the app (/join/{id}/logo), its type read from its bytes. A logo is shown at most 64 px high, so
// 200 KB is plenty and keeps the page and the database light.

export const MAX_LOGO_BYTES = 200 * 1024;
export const MAX_LOGO_SIDE = 4096;

export interface JoinLogo {
  contentType: LogoType;
  bytes: Buffer;
  updatedAt: Date;
}

function statements(db: AppDatabase) {
  return preparedOnce(db, "branding.logo", () => ({
    logo: db
      .select({ contentType: joinLogos.contentType, bytes: joinLogos.bytes, updatedAt: joinLogos.updatedAt })
      .from(joinLogos)
      .where(eq(joinLogos.waitlistId, sql.placeholder("waitlistId")))
      .prepare(),
    version: db.select({ updatedAt: joinLogos.updatedAt }).from(joinLogos).where(eq(joinLogos.waitlistId, sql.placeholder("waitlistId"))).prepare(),
  }));
}

/** A waitlist's logo, or undefined. */
export async function joinLogoOf(waitlistId: string, db: AppDatabase = getDb()): Promise<JoinLogo | undefined> {
  return await statements(db).logo.get({ waitlistId: waitlistId.toLowerCase() });
}

/** When the waitlist's logo was last set (its URL's version, so it can be cached for good), or undefined without a logo. */
export async function joinLogoVersion(waitlistId: string, db: AppDatabase = getDb()): Promise<number | undefined> {
  return (await statements(db).version.get({ waitlistId: waitlistId.toLowerCase() }))?.updatedAt.getTime();
}

/** The logo's type, read from its bytes; an AppError says why they cannot be a logo. */
export function logoTypeOf(bytes: Uint8Array): LogoType {
  if (bytes.length === 0) throw new AppError("invalid_parameter", "Invalid logo: the file is empty.", "logo");
  if (bytes.length > MAX_LOGO_BYTES) throw new AppError("invalid_parameter", `Invalid logo: the file has ${bytes.length.toLocaleString("en-US")} bytes, more than the ${formatBytes(MAX_LOGO_BYTES)} a logo may have.`, "logo");
  const image = sniffImage(bytes);
  if ("problem" in image) {
    throw new AppError("invalid_parameter", image.problem === "unsupported" ? "Invalid logo: the file is not a PNG, JPEG or WebP image." : "Invalid logo: the file starts like an image but is broken (its header is cut short or gives no size).", "logo");
  }
  if (image.width > MAX_LOGO_SIDE || image.height > MAX_LOGO_SIDE) {
    throw new AppError("invalid_parameter", `Invalid logo: the image is ${image.width}×${image.height} pixels; a logo may be at most ${MAX_LOGO_SIDE} on a side.`, "logo");
  }
  return image.type;
}

/**
 * Sets a waitlist's logo (checked first: an AppError `invalid_parameter` says why it cannot be one,
 * and nothing changes), or removes it (`bytes` null); audited (`waitlist.join_settings`) in the same
 * transaction. Throws `not_found` for an unknown waitlist.
 */
export async function setJoinLogo(waitlistId: string, bytes: Uint8Array | null, actor: AuditActor, db: AppDatabase = getDb()): Promise<void> {
  const contentType = bytes === null ? undefined : logoTypeOf(bytes);
  await writeTransaction(db, async () => {
    const waitlist = await getWaitlistOrThrow(waitlistId, db);
    if (bytes === null || contentType === undefined) {
      const removed = (await db.delete(joinLogos).where(eq(joinLogos.waitlistId, waitlist.id)).run()).changes;
      if (removed > 0) await recordAudit({ actor, action: "waitlist.join_settings", target: waitlist.id, summary: "logo removed" }, db);
      return;
    }
    const stored = { contentType, bytes: Buffer.from(bytes), updatedAt: new Date() };
    await db.insert(joinLogos).values({ waitlistId: waitlist.id, ...stored }).onConflictDoUpdate({ target: joinLogos.waitlistId, set: stored }).run();
    await recordAudit({ actor, action: "waitlist.join_settings", target: waitlist.id, summary: `logo set (${contentType}, ${formatBytes(bytes.length)})` }, db);
  });
}
