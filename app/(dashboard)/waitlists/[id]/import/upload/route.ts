import { adminRoute } from "@/lib/dashboard/admin-post";
import { importUpload } from "@/lib/dashboard/import-upload";

// POST /waitlists/{id}/import/upload?name=<file name>[&delimiter=;] – the body is the file; the response streams the import's progress (NDJSON)
export const POST = adminRoute<{ params: Promise<{ id: string }> }>(async ({ request, session, context }) => importUpload(request, session, (await context.params).id), "");
