import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { milestones, type Waitlist } from "@/db/schema";
import { singleLine } from "@/lib/core/single-line-text";
import { renderTemplate, type RenderedEmail } from "../emails/invitation";
import type { SignupRow } from "../signups/row";
import { personPageFooter } from "../verification/email";

// The email of `signup.milestone_reached`, rendered when the outbox fans the event out: the
// milestone's message (a template with the invitation's placeholders) or a plain sentence, and the
// link to the person's own page. None when the milestone was removed since.

/** The milestone an event's body names, as it stands now; undefined when it is gone. */
async function milestoneOfEvent(waitlistId: string, body: string, db: AppDatabase) {
  const named = (JSON.parse(body) as { data?: { milestone?: { referrals?: number } } }).data?.milestone?.referrals;
  if (typeof named !== "number") return undefined;
  return await db
    .select({ referrals: milestones.referrals, label: milestones.label, message: milestones.message })
    .from(milestones)
    .where(and(eq(milestones.waitlistId, waitlistId), eq(milestones.referrals, named)))
    .get();
}

export async function milestoneEmail(waitlist: Pick<Waitlist, "id" | "name" | "website">, signup: SignupRow, eventBody: string, publicUrl: string, now = Date.now(), db: AppDatabase = getDb()): Promise<RenderedEmail | undefined> {
  const milestone = await milestoneOfEvent(waitlist.id, eventBody, db);
  if (!milestone) return undefined;
  const name = singleLine(waitlist.name);
  const sentence = milestone.message ? renderTemplate(milestone.message, waitlist, signup) : `${milestone.referrals} friend${milestone.referrals === 1 ? "" : "s"} joined through your link: thank you for spreading the word.`;
  return {
    to: signup.email,
    subject: `You reached “${singleLine(milestone.label)}” on the ${name} waitlist`,
    text: `Hello,\n\nYou reached the milestone “${singleLine(milestone.label)}” on the ${name} waitlist.\n\n${sentence}\n${await personPageFooter(waitlist.id, signup.id, publicUrl, now, db)}`,
  };
}
