import { adminWriteCheck } from "@/lib/dashboard/admin-post";
import { importUpload } from "@/lib/dashboard/import-upload";

// POST /waitlists/{id}/import/upload?name=<file name>[&delimiter=;] – the body is the file; the response streams the import's progress (NDJSON)
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const checked = adminWriteCheck(request);
  if (checked instanceof Response) return checked;
  return importUpload(request, checked.session, (await params).id);
}
