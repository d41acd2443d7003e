import { leaveFromForm } from "@/lib/join/person-forms";

// POST /join/{waitlistId}/me/leave/confirm – the person's page: leave the list (the admin's erasure of this signup), then 303 to /me/left.
export async function POST(request: Request, { params }: { params: Promise<{ waitlistId: string }> }) {
  return leaveFromForm(request, (await params).waitlistId);
}
