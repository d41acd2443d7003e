import { adminPost, auditActorOf, seeOther } from "@/lib/dashboard/admin-post";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";
import { eraseAddress, eraseAddressSchema, erasedFromDisk, ERASURE_DISK_WAIT_MS } from "@/lib/domain/signups/erase";

// POST /find/erase/confirm – erase an address from every waitlist. The redirect carries no address.
export const POST = adminPost(eraseAddressSchema.pick({ email: true }), async ({ input, session }) => {
  await writeWithoutBlocking(() => eraseAddress(auditActorOf(session), input));
  const done = (await erasedFromDisk(ERASURE_DISK_WAIT_MS.dashboard)) ? "erased" : "erased-on-disk";
  return seeOther(`/find?done=${done}`);
});
