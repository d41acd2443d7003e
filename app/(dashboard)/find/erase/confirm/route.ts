import { adminPost, auditActorOf, seeOther } from "@/lib/dashboard/admin-post";
import { eraseAddress, eraseAddressSchema } from "@/lib/domain/signups/erase";

// POST /find/erase/confirm – erase an address from every waitlist. The redirect carries no address.
export const POST = adminPost(eraseAddressSchema.pick({ email: true }), ({ input, session }) => {
  eraseAddress(auditActorOf(session), input);
  return seeOther("/find?done=erased");
});
