import { joinFromForm } from "@/lib/join/submit";

// POST /join/{waitlistId}/submit – the hosted join form: joins, then 303 to the signup's place in line (or back with ?error=).
export async function POST(request: Request, { params }: { params: Promise<{ waitlistId: string }> }) {
  return joinFromForm(request, (await params).waitlistId);
}
