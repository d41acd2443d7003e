import { z } from "zod";
import { adminPost, auditActorOf } from "@/lib/dashboard/admin-post";
import { seeOther } from "@/lib/http/form-answers";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";
import { eraseAddress, eraseAddressSchema, erasedFromDisk, ERASURE_DISK_WAIT_MS } from "@/lib/domain/signups/erase";

const confirmedErasureSchema = eraseAddressSchema.pick({ email: true }).extend({ confirm: z.string().max(400).describe("the address, typed again") });

// POST /find/erase/confirm – erase an address from every waitlist, given the address typed again. The done redirect carries no address.
export const POST = adminPost(confirmedErasureSchema, async ({ input, session }) => {
  // A mistyped address: back to the confirmation page, which says so; nothing was erased.
  if (input.confirm.trim().toLowerCase() !== input.email.toLowerCase()) return seeOther(`/find/erase?email=${encodeURIComponent(input.email)}&error=confirm`);
  await writeWithoutBlocking(async () => await eraseAddress(auditActorOf(session), { email: input.email }));
  const done = (await erasedFromDisk(ERASURE_DISK_WAIT_MS.dashboard)) ? "erased" : "erased-on-disk";
  return seeOther(`/find?done=${done}`);
});
