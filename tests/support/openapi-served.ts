import { dispatchApi } from "@/lib/api/dispatch";

/** The bytes GET /v1/openapi.json serves, from the API's dispatcher (the one the server runs). */
export async function servedOpenApiText(): Promise<string> {
  const response = await dispatchApi(new Request("http://localhost/v1/openapi.json"));
  if (response.status !== 200) throw new Error(`GET /v1/openapi.json answered ${response.status}`);
  return response.text();
}
