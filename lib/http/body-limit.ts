import { formatBytes } from "@/lib/core/bytes";
import { isApiPath } from "./api-path";

// How large a request body outside /v1 may be (/v1 has its own: lib/http/incoming.ts). The production
// server refuses a larger one before Next.js reads it (lib/server/form-body.ts); the route handlers
// check again for `next dev` (readBoundedForm).
// - The public join pages' forms (join, confirm, resend): 32 KB. A join form is an address, a few
//   answers of at most MAX_JOIN_INPUT_VALUE characters and a proof of work (~1 KB); 20 fields answered
//   to the limit in Latin text are ~10 KB, and most forms are under 2 KB.
// - The dashboard's forms and server actions: 1 MB, Next.js's own limit for a server action's body.
// - The import upload (POST /waitlists/{id}/import/upload, the file itself): IMPORT_MAX_BYTES, checked
//   by the upload (lib/dashboard/import-upload.ts).

export const PUBLIC_FORM_MAX_BYTES = 32 * 1024;
export const DASHBOARD_FORM_MAX_BYTES = 1024 * 1024;

const IMPORT_UPLOAD = /^\/waitlists\/[^/?]+\/import\/upload(\?|$)/;

/** The largest body a write to this target (path and query) may send, or undefined when this rule does not bound it (/v1, the import upload). */
export function bodyLimitOf(target: string): number | undefined {
  if (isApiPath(target) || IMPORT_UPLOAD.test(target)) return undefined;
  return /^\/join(\/|\?|$)/.test(target) ? PUBLIC_FORM_MAX_BYTES : DASHBOARD_FORM_MAX_BYTES;
}

/** The 413's sentence. */
export function bodyTooLargeMessage(limit: number): string {
  return `Payload Too Large: this form may send at most ${formatBytes(limit)}; nothing was changed.`;
}

/**
 * A route handler's form, read up to `limit` bytes (the Content-Length is checked before reading, a
 * body without one as it streams): "too_large" past it, "invalid" when it is not form data.
 */
export async function readBoundedForm(request: Request, limit: number): Promise<FormData | "too_large" | "invalid"> {
  if (Number(request.headers.get("content-length") ?? 0) > limit) return "too_large";
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel();
        return "too_large";
      }
      chunks.push(value);
    }
  }
  try {
    return await new Response(Buffer.concat(chunks), { headers: { "content-type": request.headers.get("content-type") ?? "" } }).formData();
  } catch {
    return "invalid";
  }
}
