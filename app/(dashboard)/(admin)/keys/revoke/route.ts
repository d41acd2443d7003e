import { z } from "zod";
import { adminPost, auditActorOf } from "@/lib/dashboard/admin-post";
import { seeOther } from "@/lib/http/form-answers";
import { revokeApiKeyAs } from "@/lib/domain/keys/manage";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";

// POST /keys/revoke – revoke the key of the form's id (after the confirmation page /keys/{id}/revoke)
export const POST = adminPost(z.object({ id: z.string().trim().min(1, "must not be empty").max(100) }), async ({ input, session }) => {
  const { key } = await writeWithoutBlocking(async () => await revokeApiKeyAs(input.id, auditActorOf(session)));
  // Revoking the session's own key ends the session: the sign-in page says why.
  return seeOther(key.id === session.key.id ? "/signin?reason=revoked" : "/keys?done=revoked");
});
