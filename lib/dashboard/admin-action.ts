import "server-only";
import { headers } from "next/headers";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import type { DashboardSession } from "@/lib/domain/sessions";
import { crossSiteRefusal, crossSiteRefusalMessage } from "@/lib/http/same-origin";
import { invalidFormMessage, notAdminRefusal, refusedWriteMessage, sentence } from "./admin-post";
import { requireSession, sessionIsAdmin } from "./auth";

/**
 * A dashboard write as a server action (its answer must reach the page that posted: a new key, a
 * secret shown once), with adminPost's checks in the same order: refuse cross-site → session →
 * admin → `work` (parse, write with its audit row). A zod error, an AppError or a write the database
 * refused becomes the state's one-line error; `page` is revalidated afterwards.
 */
export async function adminAction<State extends { error?: string }>(page: string, work: (session: DashboardSession) => Promise<State>): Promise<State> {
  // The production server refuses a cross-site write before Next.js (lib/server/refuse.ts); this covers `next dev`.
  const refusal = crossSiteRefusal(await headers());
  if (refusal) return { error: crossSiteRefusalMessage(refusal) } as State;
  const session = await requireSession();
  if (!sessionIsAdmin(session)) return { error: notAdminRefusal(session) } as State;
  try {
    const state = await work(session);
    revalidatePath(page);
    return state;
  } catch (error) {
    if (error instanceof z.ZodError) return { error: invalidFormMessage(error) } as State;
    if (error instanceof AppError && error.status < 500) return { error: `${sentence(error.message)} Nothing was changed.` } as State;
    const refused = refusedWriteMessage(error);
    if (refused !== undefined) return { error: refused } as State;
    throw error;
  }
}
