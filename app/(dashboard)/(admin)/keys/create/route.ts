import { adminPost, auditActorOf, seeOther } from "@/lib/dashboard/admin-post";
import { issueApiKeyToReveal } from "@/lib/domain/api-key-writes";
import { expiryFrom, newApiKeyFormSchema } from "@/lib/domain/api-key-input";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";

// POST /keys/create – create a key (name, role, expiry); the keys page then shows it once
export const POST = adminPost(newApiKeyFormSchema, async ({ input, session }) => {
  const { ticket } = await writeWithoutBlocking(() =>
    issueApiKeyToReveal({ name: input.name, roles: [input.role], expiresAt: expiryFrom(input["expires-in"]) }, auditActorOf(session), session.key.id),
  );
  return seeOther(`/keys?done=created&reveal=${ticket}`);
});
