import "server-only";
import { env } from "@/lib/core/env";
import { joinSettingsOf } from "@/lib/domain/joining/settings";
import { readLinkToken } from "@/lib/domain/verification/link-token";
import { resendConfirmation } from "@/lib/domain/verification/resend";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";
import { plainTextResponse, seeOther } from "@/lib/http/form-answers";
import { readPublicForm } from "./public-form";

/** "Send the email again" from the joined page (an emailed link's only): rate-limited (lib/domain/verification/resend.ts), then back to it saying how it went. */
export async function resendFromForm(request: Request, pathId: string): Promise<Response> {
  const checked = await readPublicForm(request, pathId);
  if (checked instanceof Response) return checked;
  const { waitlist, form } = checked;
  const token = form === "invalid" ? undefined : form.get("t");
  const reading = typeof token === "string" ? await readLinkToken(token, "joined") : undefined;
  if (!reading?.ok || reading.claims.waitlistId !== waitlist.id) return plainTextResponse(400, "Invalid request: this page's link is not valid any more. Join again to get a new one.");
  const outcome = (await joinSettingsOf(waitlist.id)).verification
    ? await writeWithoutBlocking(async () => await resendConfirmation(waitlist.id, reading.claims.signupId, { emailConfigured: env().SMTP_URL !== undefined }))
    : { sent: false, reason: "gone" as const };
  const said = outcome.sent ? "sent" : outcome.reason;
  return seeOther(`/join/${waitlist.id}/joined?t=${encodeURIComponent(token as string)}&resent=${said}`);
}
