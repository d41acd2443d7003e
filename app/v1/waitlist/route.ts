// GET /v1/waitlist – list waitlists (lib/api/routes.ts)
import { listWaitlistsRoute } from "@/lib/api/routes";

export const dynamic = "force-dynamic";

export const GET = listWaitlistsRoute;
export const HEAD = GET;
export { OPTIONS, POST, PUT, PATCH, DELETE } from "@/lib/api/methods";
