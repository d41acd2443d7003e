import { z } from "zod";
import { adminPost, auditActorOf } from "@/lib/dashboard/admin-post";
import { seeOther } from "@/lib/http/form-answers";
import { resendDelivery } from "@/lib/domain/deliveries/queries";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";

// Only back to a delivery log of ours, never an address from the form.
const LOG_PATH = /^\/(?:deliveries|waitlists\/[0-9a-f-]{36}\/deliveries)(?:\?[\w=&%.-]*)?$/i;

const schema = z.object({
  id: z.coerce.number().int().min(1),
  back: z.string().regex(LOG_PATH, "must be a delivery log's path").default("/deliveries"),
});

// POST /deliveries/resend – send the delivery of the form's id again (`webhooks resend`), then back to the log it came from
export const POST = adminPost(schema, async ({ input, session }) => {
  await writeWithoutBlocking(async () => await resendDelivery(auditActorOf(session), input.id));
  const [path, search = ""] = input.back.split("?");
  const params = new URLSearchParams(search);
  params.set("done", "resent");
  return seeOther(`${path}?${params.toString()}`);
});
