import "server-only";
import { AppError } from "@/lib/core/errors";
import { PERSON_ACTOR } from "@/lib/domain/audit/log";
import { joinSettingsOf } from "@/lib/domain/joining/settings";
import { updateOwnAnswers } from "@/lib/domain/people/answers";
import { erasedFromDisk, ERASURE_DISK_WAIT_MS, eraseSignup } from "@/lib/domain/signups/erase";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";
import { plainTextResponse, seeOther } from "@/lib/http/form-answers";
import { fieldName } from "./form-fields";
import { personPageUrl, readPersonToken } from "./person-view";
import { readPublicForm, type JoinPageWaitlist } from "./public-form";

// The writes of a person's own page, plain form POSTs (they work without JavaScript): checked like
// every join page form (./public-form.ts: the list, cross-site, the size), then by the page's token,
// carried in the form's `t`.

/** The longest refusal carried back to the page in its URL (shown as text, and only beside a valid token: to the person alone). */
const MAX_SHOWN_ERROR = 300;

type PersonForm = { waitlist: JoinPageWaitlist; form: FormData; token: string; signupId: number };

async function readPersonForm(request: Request, pathId: string): Promise<Response | PersonForm> {
  const checked = await readPublicForm(request, pathId);
  if (checked instanceof Response) return checked;
  const { waitlist, form } = checked;
  if (form === "invalid") return plainTextResponse(400, "Invalid request: expected the form of your page.");
  const token = form.get("t");
  const reading = await readPersonToken(waitlist.id, token);
  if (!reading.ok) return plainTextResponse(reading.reason === "expired" ? 410 : 400, "Invalid request: this page's link does not work any more. Ask for a new one on the join page.");
  return { waitlist, form, token: token as string, signupId: reading.signupId };
}

const gone = (waitlistId: string, token: string) => seeOther(personPageUrl(waitlistId, token));

/** POST /join/{id}/me/answers: the form's answers, by the join form's rules; back to the page saying saved, or why not (nothing changed). */
export async function answersFromForm(request: Request, pathId: string): Promise<Response> {
  const checked = await readPersonForm(request, pathId);
  if (checked instanceof Response) return checked;
  const { waitlist, form, token, signupId } = checked;
  const answers = (await joinSettingsOf(waitlist.id)).fields.map((field, index) => {
    const value = form.get(fieldName(index));
    return { label: field.label, value: typeof value === "string" ? value.trim() : "" };
  });
  const outcome = await writeWithoutBlocking(async () => await updateOwnAnswers(waitlist.id, signupId, answers.filter((answer) => answer.value !== "")));
  if (outcome.saved) return seeOther(personPageUrl(waitlist.id, token, `&saved=${outcome.changed.length > 0 ? "changed" : "same"}#answers`));
  if (outcome.reason === "gone") return gone(waitlist.id, token);
  return seeOther(personPageUrl(waitlist.id, token, `&error=${encodeURIComponent(outcome.message.slice(0, MAX_SHOWN_ERROR))}#answers`));
}

/** POST /join/{id}/me/leave/confirm: the admin's erasure of this one signup, as the person; then the page that says so. */
export async function leaveFromForm(request: Request, pathId: string): Promise<Response> {
  const checked = await readPersonForm(request, pathId);
  if (checked instanceof Response) return checked;
  const { waitlist, token, signupId } = checked;
  const erased = await writeWithoutBlocking(async () => {
    try {
      return (await eraseSignup(PERSON_ACTOR, waitlist.id, signupId)).erased;
    } catch (error) {
      // Erased already (a second tab, a double click): the page says it is not on the list.
      if (error instanceof AppError && error.code === "not_found") return 0;
      throw error;
    }
  });
  if (erased === 0) return gone(waitlist.id, token);
  const onDisk = (await erasedFromDisk(ERASURE_DISK_WAIT_MS.dashboard)) ? "" : "?disk=later";
  return seeOther(`/join/${waitlist.id}/me/left${onDisk}`);
}
