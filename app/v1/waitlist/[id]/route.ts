// GET /v1/waitlist/{id} – one waitlist (lib/api/routes.ts)
import { getWaitlistRoute } from "@/lib/api/routes";

export const dynamic = "force-dynamic";

export const GET = getWaitlistRoute;
export const HEAD = GET;
export { OPTIONS, POST, PUT, PATCH, DELETE } from "@/lib/api/methods";
