import { newChallenge } from "@/lib/domain/verification/challenge";

// GET /join/{waitlistId}/challenge – a fresh proof-of-work challenge for the join form's ALTCHA widget.
export async function GET() {
  return Response.json(await newChallenge(), { headers: { "cache-control": "no-store" } });
}
