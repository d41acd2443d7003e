import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { adminPost, auditActorOf } from "@/lib/dashboard/admin-post";
import { seeOther } from "@/lib/http/form-answers";
import { parseStatusSelection } from "@/lib/dashboard/status-selection";
import { isStatusAction, STATUS_ACTIONS } from "@/lib/domain/signups/status";
import { writeStatus } from "@/lib/domain/signups/status-write";
import { getWaitlistOrThrow } from "@/lib/domain/waitlists/queries";

const fields = z.record(z.string(), z.string());

/** `path` with the notice of what was done (`?done=<past>&changed=<n>`), replacing an earlier one. */
function withDone(path: string, done: string, changed: number): string {
  const url = new URL(path, "http://dashboard.invalid");
  url.searchParams.set("done", done);
  url.searchParams.set("changed", String(changed));
  return url.pathname + url.search;
}

// POST /waitlists/{id}/status/{action}/confirm – applies a status action to the selection its
// confirmation page showed (the same fields, parsed as strictly), on the server's writer thread
export const POST = adminPost<typeof fields, { params: Promise<{ id: string; action: string }> }>(fields, async ({ input, session, context }) => {
  const { id, action } = await context.params;
  if (!isStatusAction(action)) throw new AppError("not_found", `There is no status action "${action.slice(0, 32)}".`);
  const waitlist = await getWaitlistOrThrow(id);
  const chosen = parseStatusSelection(waitlist.id, Object.entries(input));
  const { counts } = await writeStatus({ actor: auditActorOf(session), action, selection: chosen.selection });
  return seeOther(withDone(chosen.returnTo, STATUS_ACTIONS[action].past, counts.changed));
});
