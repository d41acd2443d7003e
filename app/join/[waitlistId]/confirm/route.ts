import { confirmFromLink } from "@/lib/dashboard/join-result";

// GET /join/{waitlistId}/confirm?token= – the confirmation email's link: sets the signup verified, then 303 to what happened.
export async function GET(request: Request, { params }: { params: Promise<{ waitlistId: string }> }) {
  return confirmFromLink(request, (await params).waitlistId);
}
