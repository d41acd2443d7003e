import "server-only";
import { headers } from "next/headers";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import type { DashboardSession } from "@/lib/domain/sessions";
import { checkAdminWrite } from "./admin-check";
import { REQUEST_PATH_HEADER } from "./session-cookie";
import { writeRefusalOf } from "./write-refusal";

/**
 * A dashboard write as a server action (its answer must reach the page that posted: a new key, a
 * secret shown once), with a route's checks (checkAdminWrite: without a session, to the sign-in
 * page) and `work` (parse, write with its audit row). A refused write becomes the state's one-line
 * error (writeRefusalOf); `page` is revalidated afterwards.
 */
export async function adminAction<State extends { error?: string }>(page: string, work: (session: DashboardSession) => Promise<State>): Promise<State> {
  const requestHeaders = await headers();
  const checked = await checkAdminWrite(requestHeaders, () => requestHeaders.get(REQUEST_PATH_HEADER) ?? "/");
  if ("refused" in checked) return { error: checked.refused.message } as State;
  if ("signIn" in checked) redirect(checked.signIn);
  try {
    const state = await work(checked.session);
    revalidatePath(page);
    return state;
  } catch (error) {
    const refusal = writeRefusalOf(error);
    if (refusal) return { error: refusal.message } as State;
    throw error;
  }
}
