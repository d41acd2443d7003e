// ANY /v1/... – every path the API does not have: 404 problem+json
import { notFound } from "@/lib/api/methods";

export const dynamic = "force-dynamic";

export { notFound as GET, notFound as HEAD, notFound as OPTIONS, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
