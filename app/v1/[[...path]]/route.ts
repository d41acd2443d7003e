// ANY /v1/... under `next dev`: the API's dispatcher (lib/api/dispatch.ts), which matches the path
// against the route table. The production server answers /v1 with the same dispatcher before
// Next.js sees the request (lib/server/api-routes.ts).
import { dispatchApi } from "@/lib/api/dispatch";

export const dynamic = "force-dynamic";

const dispatch = async (request: Request) => dispatchApi(request);

export { dispatch as GET, dispatch as HEAD, dispatch as OPTIONS, dispatch as POST, dispatch as PUT, dispatch as PATCH, dispatch as DELETE };
