// GET /v1/openapi.json – the OpenAPI 3.1 document of /v1, no key needed (lib/api/route-table.ts)
import { routeModule } from "@/lib/api/route-table";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeModule("/openapi.json");
