import { adminRoute, auditActorOf } from "@/lib/dashboard/admin-post";
import { setJoinLogo } from "@/lib/domain/branding/logo";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";
import { bodyTooLargeMessage, DASHBOARD_FORM_MAX_BYTES, readBoundedForm } from "@/lib/http/body-limit";
import { plainTextResponse, seeOther } from "@/lib/http/form-answers";
import { NOTHING_CHANGED } from "@/lib/dashboard/write-refusal";

// POST /waitlists/{id}/join/logo – the join page's logo: a file (`logo`) to set, or `remove=true` (`waitlists update --logo <file>|--clear-logo`)
export const POST = adminRoute<{ params: Promise<{ id: string }> }>(async ({ request, session, context }) => {
  const { id } = await context.params;
  const form = await readBoundedForm(request, DASHBOARD_FORM_MAX_BYTES);
  if (form === "too_large") return plainTextResponse(413, bodyTooLargeMessage(DASHBOARD_FORM_MAX_BYTES));
  const file = form === "invalid" ? null : form.get("logo");
  const remove = form !== "invalid" && form.get("remove") === "true";
  if (!remove && !(file instanceof File)) return plainTextResponse(400, `Invalid request: expected a form with a logo file, or remove=true. ${NOTHING_CHANGED}`);
  const bytes = remove ? null : new Uint8Array(await (file as File).arrayBuffer());
  await writeWithoutBlocking(async () => await setJoinLogo(id, bytes, auditActorOf(session)));
  return seeOther(`/waitlists/${id.toLowerCase()}/join?done=${remove ? "logo_removed" : "logo_saved"}`);
});
