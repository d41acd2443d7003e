import "server-only";
import type { z } from "zod";
import type { AuditActor } from "@/lib/domain/audit/log";
import type { DashboardSession } from "@/lib/domain/sessions";
import { bodyTooLargeMessage, DASHBOARD_FORM_MAX_BYTES, readBoundedForm } from "@/lib/http/body-limit";
import { plainTextResponse, seeOther } from "@/lib/http/form-answers";
import { requestOrigin } from "@/lib/http/origin";
import { checkAdminWrite } from "./admin-check";
import { writeRefusalOf } from "./write-refusal";

export interface AdminRouteArguments<Context> {
  session: DashboardSession;
  request: Request;
  context: Context;
}

export interface AdminPostArguments<Input, Context> extends AdminRouteArguments<Context> {
  input: Input;
}

/** The audit log's actor for a dashboard write: the session's key, by id and name (never the key). */
export function auditActorOf(session: DashboardSession): Exclude<AuditActor, string> {
  return { keyId: session.key.id, keyName: session.key.name };
}

/** checkAdminWrite for a route handler: the refusal as a plain-text page, the sign-in page as a 303; or the admin session. */
export async function adminWriteCheck(request: Request): Promise<Response | { session: DashboardSession }> {
  const checked = await checkAdminWrite(request.headers, () => returnPathOf(request));
  if ("refused" in checked) return plainTextResponse(checked.refused.status, checked.refused.message);
  if ("signIn" in checked) return seeOther(checked.signIn);
  return checked;
}

/**
 * A dashboard write as a route handler: the admin checks first (adminWriteCheck), then `handler`,
 * which writes and returns the response. A refused write it throws (an AppError, a zod error, a
 * write the database refused) is answered as writeRefusalOf says, ending with `nothingDone`.
 */
export function adminRoute<Context = unknown>(
  handler: (args: AdminRouteArguments<Context>) => Response | Promise<Response>,
  nothingDone?: string,
): (request: Request, context: Context) => Promise<Response> {
  return async (request, context) => {
    const checked = await adminWriteCheck(request);
    if (checked instanceof Response) return checked;
    try {
      return await handler({ session: checked.session, request, context });
    } catch (error) {
      const refusal = writeRefusalOf(error, nothingDone);
      if (refusal) return plainTextResponse(refusal.status, refusal.message);
      throw error;
    }
  };
}

/**
 * A dashboard write as a route handler for an HTML form POST: adminRoute, whose handler first reads
 * the form (413 past DASHBOARD_FORM_MAX_BYTES, 400 when it is not a form of text fields) and parses
 * its fields with `schema` (400 naming the field, nothing changed), then calls `handler` (usually
 * answering seeOther back to the page with `?done=`).
 */
export function adminPost<Schema extends z.ZodType, Context = unknown>(
  schema: Schema,
  handler: (args: AdminPostArguments<z.output<Schema>, Context>) => Response | Promise<Response>,
): (request: Request, context: Context) => Promise<Response> {
  return adminRoute<Context>(async (args) => {
    const fields = await formFields(args.request);
    if (fields === "too_large") return plainTextResponse(413, bodyTooLargeMessage(DASHBOARD_FORM_MAX_BYTES));
    if (!fields) return plainTextResponse(400, "Invalid request: expected an HTML form of text fields.");
    return handler({ ...args, input: schema.parse(fields) });
  });
}

/** The form's fields as strings ("too_large" past DASHBOARD_FORM_MAX_BYTES); undefined when it is not a form or holds a file or a repeated field. */
async function formFields(request: Request): Promise<Record<string, string> | "too_large" | undefined> {
  const form = await readBoundedForm(request, DASHBOARD_FORM_MAX_BYTES);
  if (form === "too_large") return form;
  if (form === "invalid") return undefined;
  const fields = new Map<string, string>();
  for (const [name, value] of form) {
    if (typeof value !== "string" || fields.has(name)) return undefined;
    fields.set(name, value);
  }
  return Object.fromEntries(fields);
}

/** Where to come back after signing in: the page that posted (its Referer, when it is ours). */
function returnPathOf(request: Request): string {
  const referer = request.headers.get("referer");
  if (!referer) return "/";
  try {
    const url = new URL(referer);
    return url.origin === requestOrigin(request.headers) ? url.pathname + url.search : "/";
  } catch {
    return "/";
  }
}
