import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { signups } from "@/db/schema";
import { writeTransaction } from "@/lib/store/transaction";
import { PERSON_ACTOR, recordAudit } from "../audit/log";
import { appendEvent } from "../events";
import { JoinRefused, matchInputs } from "../joining/join-input";
import { joinSettingsOf } from "../joining/settings";
import { signupPublicId } from "../signups/id";
import { getSignup } from "../signups/queries";
import { getWaitlist } from "../waitlists/queries";

// A person changes their answers to the join form from their own page: the same rules as joining
// (matchInputs: the form's fields, required ones answered, choices among their options, one line of
// plain text), in one transaction with the `signup.updated` event and an audit row as the person.
// Stored inputs that are not the form's fields (an import's columns, a field removed since) stay.

export type AnswersOutcome = { saved: true; changed: string[] } | { saved: false; reason: "gone" } | { saved: false; reason: "invalid"; message: string };

const sameLabel = (a: unknown, b: string) => typeof a === "string" && a.trim().toLowerCase() === b.toLowerCase();

export async function updateOwnAnswers(waitlistId: string, signupId: number, answers: { label: string; value: string }[], db: AppDatabase = getDb()): Promise<AnswersOutcome> {
  return await writeTransaction<AnswersOutcome>(db, async () => {
    const waitlist = await getWaitlist(waitlistId, db);
    const signup = waitlist && await getSignup(waitlist.id, signupId, db);
    if (!waitlist || !signup) return { saved: false, reason: "gone" };
    const { fields } = await joinSettingsOf(waitlist.id, db);
    let matched: { label: string; value: string }[];
    try {
      matched = matchInputs(fields, answers);
    } catch (error) {
      if (error instanceof JoinRefused) return { saved: false, reason: "invalid", message: error.message };
      throw error;
    }
    const valueOf = (inputs: Record<string, unknown>[], label: string) => inputs.find((input) => sameLabel(input.label, label))?.value;
    const changed = fields.map((field) => field.label).filter((label) => valueOf(signup.customInputs, label) !== valueOf(matched, label));
    if (changed.length === 0) return { saved: true, changed };
    const others = signup.customInputs.filter((input) => !fields.some((field) => sameLabel(input.label, field.label)));
    await db.update(signups)
      .set({ customInputs: JSON.stringify([...matched, ...others]) })
      .where(and(eq(signups.id, signup.id), eq(signups.waitlistId, waitlist.id)))
      .run();
    await appendEvent({ type: "signup.updated", waitlistId: waitlist.id, signupId: signup.id, payload: { changed } }, db);
    await recordAudit({ actor: PERSON_ACTOR, action: "signup.update", target: waitlist.id, summary: `signup ${signupPublicId(signup.id)} changed ${changed.length} answer${changed.length === 1 ? "" : "s"} on its own page` }, db);
    return { saved: true, changed };
  });
}
