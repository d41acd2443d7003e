// GET /v1/waitlist/{id}/signup – a waitlist's signups (lib/api/routes.ts)
import { listSignupsRoute } from "@/lib/api/routes";

export const dynamic = "force-dynamic";

export const GET = listSignupsRoute;
export const HEAD = GET;
export { OPTIONS, POST, PUT, PATCH, DELETE } from "@/lib/api/methods";
