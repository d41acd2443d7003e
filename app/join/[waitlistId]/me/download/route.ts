import { personalDataDownload } from "@/lib/join/person-data";

// GET /join/{waitlistId}/me/download?t=… – the person's page: "download my data", everything stored about them as a JSON file.
export async function GET(request: Request, { params }: { params: Promise<{ waitlistId: string }> }) {
  return personalDataDownload((await params).waitlistId, new URL(request.url).searchParams.get("t"));
}
