import { z } from "zod";
import { adminPost, auditActorOf } from "@/lib/dashboard/admin-post";
import { seeOther } from "@/lib/http/form-answers";
import { updateEndpoint } from "@/lib/domain/webhooks/endpoints";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";

// POST /webhooks/enabled – enable (`enabled=true`) or disable (`enabled=false`) the endpoint of the form's id
export const POST = adminPost(z.object({ id: z.uuid(), enabled: z.enum(["true", "false"]) }), async ({ input, session }) => {
  const enabled = input.enabled === "true";
  await writeWithoutBlocking(async () => await updateEndpoint(auditActorOf(session), input.id, { enabled }));
  return seeOther(`/webhooks?done=${enabled ? "enabled" : "disabled"}`);
});
