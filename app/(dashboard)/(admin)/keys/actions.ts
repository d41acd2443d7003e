"use server";

import { adminAction } from "@/lib/dashboard/admin-action";
import { auditActorOf } from "@/lib/dashboard/admin-post";
import { issueApiKey } from "@/lib/domain/keys/manage";
import { expiryFrom, newApiKeyFormSchema } from "@/lib/domain/keys/input";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";

/** The key just created, in the response of the request that created it: never stored, so shown this once. */
export interface NewKey {
  id: string;
  name: string;
  key: string;
}

export interface CreateKeyState {
  created?: NewKey;
  error?: string;
}

const FIELDS = Object.keys(newApiKeyFormSchema.shape) as (keyof typeof newApiKeyFormSchema.shape)[];

// Create a key (the same fields and rules as `keys create`): refuse cross-site → session → admin → parse → write with its audit row.
export async function createKey(_previous: CreateKeyState, form: FormData): Promise<CreateKeyState> {
  return adminAction<CreateKeyState>("/keys", async (session) => {
    const fields: Record<string, string> = {};
    for (const name of FIELDS) {
      const value = form.get(name);
      if (value !== null && typeof value !== "string") return { error: "Invalid request: expected an HTML form of text fields." };
      if (value !== null) fields[name] = value;
    }
    const input = newApiKeyFormSchema.parse(fields);
    const created = await writeWithoutBlocking(async () =>
      await issueApiKey({ name: input.name, roles: [input.role], expiresAt: expiryFrom(input["expires-in"]) }, auditActorOf(session)),
    );
    return { created: { id: created.id, name: created.name, key: created.key } };
  });
}
