"use server";

import { headers } from "next/headers";
import { revalidatePath } from "next/cache";
import { AppError } from "@/lib/core/errors";
import { auditActorOf, invalidFormMessage, notAdminRefusal, refusedWriteMessage, sentence } from "@/lib/dashboard/admin-post";
import { requireSession, sessionIsAdmin } from "@/lib/dashboard/auth";
import { issueApiKey } from "@/lib/domain/keys/manage";
import { expiryFrom, newApiKeyFormSchema } from "@/lib/domain/keys/input";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";
import { crossSiteRefusal, crossSiteRefusalMessage } from "@/lib/http/same-origin";

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
  // The production server refuses a cross-site write before Next.js (lib/server/refuse.ts); this covers `next dev`.
  const refusal = crossSiteRefusal(await headers());
  if (refusal) return { error: crossSiteRefusalMessage(refusal) };
  const session = await requireSession();
  if (!sessionIsAdmin(session)) return { error: notAdminRefusal(session) };
  const fields: Record<string, string> = {};
  for (const name of FIELDS) {
    const value = form.get(name);
    if (value !== null && typeof value !== "string") return { error: "Invalid request: expected an HTML form of text fields." };
    if (value !== null) fields[name] = value;
  }
  const parsed = newApiKeyFormSchema.safeParse(fields);
  if (!parsed.success) return { error: invalidFormMessage(parsed.error) };
  const input = parsed.data;
  try {
    const created = await writeWithoutBlocking(() =>
      issueApiKey({ name: input.name, roles: [input.role], expiresAt: expiryFrom(input["expires-in"]) }, auditActorOf(session)),
    );
    revalidatePath("/keys");
    return { created: { id: created.id, name: created.name, key: created.key } };
  } catch (error) {
    if (error instanceof AppError && error.status < 500) return { error: `${sentence(error.message)} Nothing was changed.` };
    const refused = refusedWriteMessage(error);
    if (refused !== undefined) return { error: refused };
    throw error;
  }
}
