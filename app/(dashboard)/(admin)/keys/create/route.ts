import { adminPost, auditActorOf, seeOther } from "@/lib/dashboard/admin-post";
import { holdNewKey } from "@/lib/domain/new-key-reveals";
import { expiryFrom, newApiKeyFormSchema } from "@/lib/domain/api-key-input";
import { issueApiKey } from "@/lib/domain/api-key-writes";

// POST /keys/create – create a key (name, role, expiry); the keys page then shows it once
export const POST = adminPost(newApiKeyFormSchema, ({ input, session }) => {
  const created = issueApiKey({ name: input.name, roles: [input.role], expiresAt: expiryFrom(input["expires-in"]) }, auditActorOf(session));
  const ticket = holdNewKey({ id: created.id, name: created.name, key: created.key }, session.key.id);
  return seeOther(`/keys?done=created&reveal=${ticket}`);
});
