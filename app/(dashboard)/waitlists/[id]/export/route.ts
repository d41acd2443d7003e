import { requireSession } from "@/lib/dashboard-auth";
import { parseSignupTableParams } from "@/lib/list-params";
import { signupCsvStream } from "@/lib/signup-csv";
import { findWaitlist } from "../find-waitlist";

function fileSlug(name: string): string {
  return (
    name
      .normalize("NFKD")
      .replace(/[^A-Za-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .toLowerCase()
      .slice(0, 60) || "waitlist"
  );
}

// GET /waitlists/{id}/export – every signup the filters and search select, as streamed CSV
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  await requireSession();
  const waitlist = findWaitlist((await params).id);
  if (!waitlist) return new Response("No waitlist has this id.\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  const state = parseSignupTableParams(Object.fromEntries(new URL(request.url).searchParams));
  const stream = signupCsvStream({ waitlistId: waitlist.id, verified: state.verified, referral: state.referral, search: state.q });
  const filename = `${fileSlug(waitlist.name)}-signups-${new Date().toISOString().slice(0, 10)}.csv`;
  return new Response(stream, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${filename}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
