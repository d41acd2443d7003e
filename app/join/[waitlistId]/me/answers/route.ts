import { answersFromForm } from "@/lib/join/person-forms";

// POST /join/{waitlistId}/me/answers – the person's page: change one's answers (the join form's rules), then 303 back to the page.
export async function POST(request: Request, { params }: { params: Promise<{ waitlistId: string }> }) {
  return answersFromForm(request, (await params).waitlistId);
}
