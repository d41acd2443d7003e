import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { adminPost, auditActorOf } from "@/lib/dashboard/admin-post";
import { seeOther } from "@/lib/http/form-answers";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";
import { erasedFromDisk, ERASURE_DISK_WAIT_MS, eraseSignup } from "@/lib/domain/signups/erase";
import { parseSignupPublicId } from "@/lib/domain/signups/id";

const noFields = z.object({});

// POST /waitlists/{id}/signups/{signupId}/erase/confirm – erase one signup (the form has no fields)
export const POST = adminPost<typeof noFields, { params: Promise<{ id: string; signupId: string }> }>(noFields, async ({ session, context }) => {
  const { id, signupId } = await context.params;
  const rowId = parseSignupPublicId(signupId);
  if (rowId === undefined) throw new AppError("not_found", `No signup has the id ${signupId.slice(0, 32)}`);
  await writeWithoutBlocking(async () => await eraseSignup(auditActorOf(session), id, rowId));
  const done = (await erasedFromDisk(ERASURE_DISK_WAIT_MS.dashboard)) ? "erased" : "erased-on-disk";
  return seeOther(`/waitlists/${encodeURIComponent(id)}?done=${done}`);
});
