import { resendFromForm } from "@/lib/join/resend";

// POST /join/{waitlistId}/resend – "send the email again" on the joined page (rate-limited), then 303 back to it.
export async function POST(request: Request, { params }: { params: Promise<{ waitlistId: string }> }) {
  return resendFromForm(request, (await params).waitlistId);
}
