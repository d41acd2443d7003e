// GET /v1/openapi.json – the OpenAPI 3.1 document of /v1 (no key needed)
import { openApiDocument } from "@/lib/api/openapi";
import { jsonResponse } from "@/lib/api/responses";
import { withApiKey } from "@/lib/api/with-api-key";

export const GET = withApiKey(() => jsonResponse(openApiDocument), { public: true });
export const HEAD = GET;
export { OPTIONS, POST, PUT, PATCH, DELETE } from "@/lib/api/methods";
