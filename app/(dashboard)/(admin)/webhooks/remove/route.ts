import { z } from "zod";
import { adminPost, auditActorOf } from "@/lib/dashboard/admin-post";
import { seeOther } from "@/lib/http/form-answers";
import { removeEndpoint } from "@/lib/domain/webhooks/endpoints";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";

// POST /webhooks/remove – remove the endpoint of the form's id (after the confirmation page /webhooks/{id}/remove)
export const POST = adminPost(z.object({ id: z.uuid() }), async ({ input, session }) => {
  await writeWithoutBlocking(async () => await removeEndpoint(auditActorOf(session), input.id));
  return seeOther("/webhooks?done=removed");
});
