// GET /v1/waitlist/{id}/signup – a waitlist's signups (lib/api/route-table.ts)
import { routeModule } from "@/lib/api/route-table";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeModule("/waitlist/{id}/signup");
