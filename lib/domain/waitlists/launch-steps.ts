import "server-only";
import { and, eq, gt, inArray, sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { signupCounts } from "@/db/schema";
import { joinLogoVersion } from "../branding/logo";
import { getInvitationEmail } from "../emails/invitation";
import { joinSettingsOf } from "../joining/settings";
import type { SignupStatus } from "../signups/status";

// A new waitlist's way to launch, step by step, each ticked from the data alone (nothing to dismiss
// or keep in step): the dashboard's checklist on the waitlist page (issue 33).

export const LAUNCH_STEPS = ["joining", "branding", "email", "first_signup", "first_invitation", "product"] as const;
export type LaunchStep = (typeof LAUNCH_STEPS)[number];

/**
 * Whether the waitlist has a signup (of one of `statuses`, when given), from its counting table: asked
 * of `signups`, a status no signup has yet walked the whole list (300 ms at 1M, on every admin's view).
 */
async function hasSignup(waitlistId: string, db: AppDatabase, statuses?: readonly SignupStatus[]): Promise<boolean> {
  const status = statuses && inArray(signupCounts.status, [...statuses]);
  return (await db.select({ one: sql<number>`1` }).from(signupCounts).where(and(eq(signupCounts.waitlistId, waitlistId), gt(signupCounts.count, 0), status)).limit(1).all()).length > 0;
}

/**
 * Which launch steps a waitlist has done: joining open; the join page branded (a headline, a
 * description, an accent colour or a logo); email configured (the server's SMTP_URL, given by the
 * caller); a first signup; a first invitation (a signup invited or completed); the product connected
 * (an invite URL set, and a signup completed).
 */
export async function launchSteps(waitlistId: string, emailConfigured: boolean, db: AppDatabase = getDb()): Promise<Record<LaunchStep, boolean>> {
  const settings = await joinSettingsOf(waitlistId, db);
  const invited = await hasSignup(waitlistId, db, ["invited", "completed"]);
  return {
    joining: settings.joining === "open",
    branding: settings.headline !== "" || settings.description !== "" || settings.accentColor !== "" || await joinLogoVersion(waitlistId, db) !== undefined,
    email: emailConfigured,
    first_signup: invited || await hasSignup(waitlistId, db),
    first_invitation: invited,
    product: (await getInvitationEmail(waitlistId, db)).inviteUrl !== null && await hasSignup(waitlistId, db, ["completed"]),
  };
}
