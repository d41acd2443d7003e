import { newChallenge } from "@/lib/domain/verification/challenge";
import { waitlistOfPath } from "@/lib/join/public-form";

// GET /join/{waitlistId}/challenge – a fresh proof-of-work challenge for the join form's ALTCHA widget,
// bound to this waitlist (a solution is accepted by this waitlist's form only).
export async function GET(_request: Request, { params }: { params: Promise<{ waitlistId: string }> }) {
  const { waitlistId } = await params;
  const waitlist = await waitlistOfPath(waitlistId);
  if (!waitlist) return new Response("Not found: this waitlist does not exist.", { status: 404, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
  return Response.json(await newChallenge(waitlist.id), { headers: { "cache-control": "no-store" } });
}
