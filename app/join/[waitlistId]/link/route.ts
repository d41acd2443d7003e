import { linkRequestFromForm } from "@/lib/join/person-link";

// POST /join/{waitlistId}/link – "already joined? get your link": emails the address's signup a link to its page; the same answer for every address.
export async function POST(request: Request, { params }: { params: Promise<{ waitlistId: string }> }) {
  return linkRequestFromForm(request, (await params).waitlistId);
}
