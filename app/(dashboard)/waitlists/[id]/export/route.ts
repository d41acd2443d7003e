import { requireSession } from "@/lib/dashboard/auth";
import { SESSION_ID_HEADER } from "@/lib/dashboard/budget";
import { EXPORT_SLOTS, EXPORTS_PER_SESSION, releasingWhenDone } from "@/lib/dashboard/export-slots";
import { exportFileName } from "@/lib/dashboard/export-file-name";
import { serverLimits } from "@/lib/http/limits";
import { sharedLimitStore } from "@/lib/domain/limits/shared";
import { parseSignupTableParams } from "@/lib/dashboard/signup-table";
import { EXPORT_COLUMNS_PARAM, tableScope } from "@/lib/dashboard/signup-table-url";
import { inputColumnsOf, signupCsvStream } from "@/lib/domain/signups/csv";
import { findWaitlist } from "../find-waitlist";

const TEXT = { "content-type": "text/plain; charset=utf-8" };

// GET /waitlists/{id}/export – every signup the filters and search select, as streamed CSV, with each
// answer's label a column of its own on `columns=inputs` (at most EXPORTS_PER_SESSION at once per session; each request also counts against the session's budget in proxy.ts)
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const session = await requireSession();
  const waitlist = await findWaitlist((await params).id);
  if (!waitlist) return new Response("No waitlist has this id.\n", { status: 404, headers: TEXT });
  const query = new URL(request.url).searchParams;
  const columns = query.get(EXPORT_COLUMNS_PARAM);
  if (columns !== null && columns !== "inputs") return new Response(`The ${EXPORT_COLUMNS_PARAM} parameter can only be "inputs" (each answer in a column of its own), or left out.\n`, { status: 400, headers: TEXT });
  query.delete(EXPORT_COLUMNS_PARAM);
  const state = parseSignupTableParams(Object.fromEntries(query));
  const filename = exportFileName(waitlist.name, state);
  const headers = {
    "content-type": "text/csv; charset=utf-8",
    "content-disposition": `attachment; filename="${filename}"`,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  };
  // Next.js answers HEAD with this handler's headers and never reads nor cancels the body: no stream, no slot.
  if (request.method === "HEAD") return new Response(null, { headers });
  // proxy.ts always sets the header on this path; the key id is only a stricter fallback.
  const sessionId = request.headers.get(SESSION_ID_HEADER) ?? session.key.id;
  const release = await serverLimits(sharedLimitStore()).take(EXPORT_SLOTS, sessionId);
  if (!release) {
    return new Response(`Too many exports at once: this session already has ${EXPORTS_PER_SESSION} CSV exports running. Wait until one has finished (or cancel it), then try again.\n`, {
      status: 429,
      headers: { ...TEXT, "cache-control": "no-store" },
    });
  }
  const csv = signupCsvStream(tableScope(waitlist.id, state), columns === "inputs" ? await inputColumnsOf(waitlist.id) : []);
  return new Response(releasingWhenDone(csv, release, request.signal), { headers });
}
