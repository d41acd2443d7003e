import "server-only";
import type { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { storageFailureOf } from "@/lib/core/storage-failure";
import type { AuditActor } from "@/lib/domain/audit/log";
import { lookupSession, type DashboardSession } from "@/lib/domain/sessions";
import { bodyTooLargeMessage, DASHBOARD_FORM_MAX_BYTES, readBoundedForm } from "@/lib/http/body-limit";
import { requestOrigin } from "@/lib/http/origin";
import { logRefusedWrite } from "@/lib/http/refused-write";
import { setRequestKeyId } from "@/lib/http/request-context";
import { crossSiteRefusal, crossSiteRefusalMessage } from "@/lib/http/same-origin";
import { sessionIsAdmin } from "./auth";
import { signInHref } from "./return-path";
import { sessionTokenOf } from "./session-cookie";

export interface AdminPostArguments<Input, Context> {
  input: Input;
  session: DashboardSession;
  request: Request;
  context: Context;
}

const NO_STORE = { "cache-control": "no-store" };

/** A refusal or failure as a short plain-text page with its status. */
export function plainTextResponse(status: number, message: string): Response {
  return new Response(`${message}\n`, { status, headers: { "content-type": "text/plain; charset=utf-8", ...NO_STORE } });
}

/** 303 See Other: after a write, the browser GETs `location` (a root-relative path). */
export function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { location, ...NO_STORE } });
}

/** The audit log's actor for a dashboard write: the session's key, by id and name (never the key). */
export function auditActorOf(session: DashboardSession): Exclude<AuditActor, "cli"> {
  return { keyId: session.key.id, keyName: session.key.name };
}

/**
 * The checks every dashboard write starts with, in this order: refuses a cross-site request (403,
 * crossSiteRefusal); without a valid session sends the browser to sign in (303); refuses a key
 * without waitlist:admin (403). Returns the refusal, or the admin session.
 */
export function adminWriteCheck(request: Request): Response | { session: DashboardSession } {
  const refusal = crossSiteRefusal(request.headers);
  if (refusal) return plainTextResponse(403, crossSiteRefusalMessage(refusal));
  const lookup = lookupSession(sessionTokenOf(request.headers));
  if (!lookup.ok) return seeOther(signInHref(returnPathOf(request), lookup.reason));
  const { session } = lookup;
  setRequestKeyId(session.key.id);
  if (!sessionIsAdmin(session)) return plainTextResponse(403, notAdminRefusal(session));
  return { session };
}

/** What a session without waitlist:admin is told when it tries a dashboard write. */
export function notAdminRefusal(session: DashboardSession): string {
  return `Refused: the key of this session (${session.key.name}) does not carry the waitlist:admin role, which this action needs.`;
}

/** A form the schema refused, as one sentence naming the field. */
export function invalidFormMessage(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const field = issue.path.length > 0 ? issue.path.join(".") : "form";
  return `${sentence(`Invalid ${field}: ${issue.message}`)} Nothing was changed.`;
}

/**
 * A dashboard write as a route handler for an HTML form POST. In this order: refuses a cross-site
 * request (403, crossSiteRefusal); without a valid session sends the browser to sign in (303);
 * refuses a key without waitlist:admin (403) (those three: adminWriteCheck); parses the form's fields with `schema` (400 naming
 * the field, nothing changed); then calls `handler`, which writes and returns the response
 * (usually seeOther back to the page with `?done=`). An AppError from it becomes its status; a write
 * the database refused (full disk, read-only, locked) a 503 that says why (refusedWriteResponse).
 */
export function adminPost<Schema extends z.ZodType, Context = unknown>(
  schema: Schema,
  handler: (args: AdminPostArguments<z.output<Schema>, Context>) => Response | Promise<Response>,
): (request: Request, context: Context) => Promise<Response> {
  return async (request, context) => {
    const checked = adminWriteCheck(request);
    if (checked instanceof Response) return checked;
    const { session } = checked;
    const fields = await formFields(request);
    if (fields === "too_large") return plainTextResponse(413, bodyTooLargeMessage(DASHBOARD_FORM_MAX_BYTES));
    if (!fields) return plainTextResponse(400, "Invalid request: expected an HTML form of text fields.");
    const parsed = schema.safeParse(fields);
    if (!parsed.success) return plainTextResponse(400, invalidFormMessage(parsed.error));
    try {
      return await handler({ input: parsed.data, session, request, context });
    } catch (error) {
      if (error instanceof AppError && error.status < 500) return plainTextResponse(error.status, `${sentence(error.message)} Nothing was changed.`);
      const refused = refusedWriteResponse(error);
      if (refused) return refused;
      throw error;
    }
  };
}

/**
 * A write the database refused (a full disk, a read-only file, a lock held past the wait): a 503 page
 * of one line that says why and that nothing was changed, logged in one line; undefined for any other
 * error.
 */
export function refusedWriteResponse(error: unknown): Response | undefined {
  const message = refusedWriteMessage(error);
  return message === undefined ? undefined : plainTextResponse(503, message);
}

/** refusedWriteResponse's sentence (logged in one line), for a server action's state; undefined for any other error. */
export function refusedWriteMessage(error: unknown): string | undefined {
  const failure = storageFailureOf(error);
  if (!failure) return undefined;
  logRefusedWrite(failure);
  return sentence(failure.message.charAt(0).toUpperCase() + failure.message.slice(1));
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

/** A message as a sentence: ends with one full stop. */
export function sentence(message: string): string {
  return /[.!?]$/.test(message) ? message : `${message}.`;
}
