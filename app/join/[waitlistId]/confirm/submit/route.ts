import { confirmFromForm } from "@/lib/join/confirm";

// POST /join/{waitlistId}/confirm/submit – the button of the confirmation link's page: sets the signup verified, then 303 to what happened.
export async function POST(request: Request, { params }: { params: Promise<{ waitlistId: string }> }) {
  return confirmFromForm(request, (await params).waitlistId);
}
