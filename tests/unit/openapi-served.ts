import { routeModule } from "@/lib/api/route-table";

/** The bytes GET /v1/openapi.json serves, from the route's own handler (the one the server runs). */
export async function servedOpenApiText(): Promise<string> {
  const response = await routeModule("/openapi.json").GET(new Request("http://localhost/v1/openapi.json"), { params: Promise.resolve({}) });
  if (response.status !== 200) throw new Error(`GET /v1/openapi.json answered ${response.status}`);
  return response.text();
}
