import { readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { dispatchApi, matchApiPath } from "@/lib/api/dispatch";
import { API_ROUTES, openApiDocument } from "@/lib/api/route-table";
import { tempDatabase } from "@/tests/support/temp-db";

// The route table (lib/api/route-table.ts) against what derives from it: the dispatcher, the one
// matcher of /v1 (lib/api/dispatch.ts), the catch-all route that hands it `next dev`'s requests,
// and the OpenAPI paths.

// A refused request counts against its address's limits, which ask the app's database (getDb) where they are counted.
const temp = tempDatabase();
process.env.DATABASE_PATH = temp.path;
afterAll(() => temp.close());

const V1 = join(process.cwd(), "app", "v1");
const METHODS = ["DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT"];

const templates = [...new Set(API_ROUTES.map((route) => route.template))];
// A template's methods: GET (with HEAD), POST, or both (GET and POST /waitlist/{id}/signup).
const methodsOf = (template: string) => API_ROUTES.filter((route) => route.template === template).map((route) => route.method);
const allowOf = (template: string) => {
  const methods = methodsOf(template);
  return methods.includes("GET") && methods.includes("POST") ? "GET, HEAD, POST, OPTIONS" : methods.includes("GET") ? "GET, HEAD, OPTIONS" : "POST, OPTIONS";
};
const ID = "5c1e0b8e-1f0a-4c3e-9a57-0c6f1d2e3a4b";
const pathOf = (template: string, id = ID) => `/v1${template.replace(/\{\w+\}/g, id)}`;
/** A template's path parameters, each with `value`. */
const paramsOf = (template: string, value: string) => Object.fromEntries([...template.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name, value]));
const send = (method: string, path: string) => dispatchApi(new Request(`http://localhost${path}`, { method }));

describe("the /v1 route table", () => {
  it("app/v1 holds one route file, the catch-all, and every method it exports is the dispatcher", async () => {
    const files = readdirSync(V1, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    expect(files.map((entry) => join(relative(V1, entry.parentPath), entry.name).split(sep).join("/"))).toEqual(["[[...path]]/route.ts"]);
    const exported = (await import(join(V1, "[[...path]]", "route.ts"))) as Record<string, unknown>;
    expect(Object.keys(exported).sort()).toEqual([...METHODS, "dynamic"].sort());
    expect(exported.dynamic).toBe("force-dynamic");
    for (const method of METHODS) expect(exported[method], method).toBe(exported.GET);
    const answer = await (exported.GET as (request: Request) => Promise<Response>)(new Request("http://localhost/v1/openapi.json"));
    expect(answer.status).toBe(200);
  });

  it.each(API_ROUTES.filter((route) => route.method === "GET").map((route) => [route.template, route.needsKey] as const))("%s: GET and HEAD reach its handler, OPTIONS is 204, any other method 405", async (template, needsKey) => {
    for (const method of ["GET", "HEAD"]) {
      const response = await send(method, pathOf(template));
      // Without a key, a keyed route's wrapper answers 401 before the handler; the public one answers.
      expect(response.status, `${method} ${template}`).toBe(needsKey ? 401 : 200);
      expect(response.headers.get("request-id")).toMatch(/^[0-9a-f-]{36}$/);
      if (method === "HEAD") expect(await response.text()).toBe("");
    }
    const options = await send("OPTIONS", pathOf(template));
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe(allowOf(template));
    for (const method of ["POST", "PUT", "PATCH", "DELETE"].filter((method) => !methodsOf(template).includes(method as "POST"))) {
      const refused = await send(method, pathOf(template));
      expect(refused.status, `${method} ${template}`).toBe(405);
      expect(((await refused.json()) as { code: string }).code).toBe("method_not_allowed");
    }
  });

  it.each(API_ROUTES.filter((route) => route.method === "POST").map((route) => route.template))("%s: POST reaches its handler (401 without a key), OPTIONS is 204, any other method 405", async (template) => {
    const response = await send("POST", pathOf(template));
    expect(response.status).toBe(401);
    const options = await send("OPTIONS", pathOf(template));
    expect([options.status, options.headers.get("allow")]).toEqual([204, allowOf(template)]);
    for (const method of ["GET", "HEAD", "PUT", "PATCH", "DELETE"].filter((method) => !methodsOf(template).includes(method === "HEAD" ? "GET" : (method as "GET")))) {
      const refused = await send(method, pathOf(template));
      expect([refused.status, refused.headers.get("allow")], `${method} ${template}`).toEqual([405, allowOf(template)]);
    }
  });

  it("gives the OpenAPI document exactly its paths and operations, public ones without security", () => {
    expect(Object.keys(openApiDocument.paths)).toEqual(templates);
    for (const { template, method, needsKey, operation } of API_ROUTES) {
      const documented = openApiDocument.paths[template]!;
      expect(Object.keys(documented)).toEqual(methodsOf(template).map((each) => each.toLowerCase()));
      expect(documented[method.toLowerCase() as "get" | "post"]).toEqual(needsKey ? operation : { ...operation, security: [] });
      // A route that needs a key documents what a key can be refused with; a public one does not.
      for (const status of ["401", "403", "429"]) expect(status in operation.responses, `${template} ${status}`).toBe(needsKey);
      for (const parameter of operation.parameters.filter((parameter) => parameter.in === "path")) expect(template).toContain(`{${parameter.name}}`);
    }
  });

  it("matches each template once, with its parameters percent-decoded (kept as they are when they do not decode)", () => {
    for (const template of templates) {
      const match = matchApiPath(pathOf(template, "a%20b"));
      expect(match && "template" in match ? match.template : null, template).toBe(template);
      expect(match && "params" in match ? match.params : null).toEqual(paramsOf(template, "a b"));
    }
    expect(matchApiPath("/v1/waitlist/%ZZ/signup")).toMatchObject({ template: "/waitlist/{id}/signup", params: { id: "%ZZ" } });
  });

  it("redirects a trailing or doubled slash to the canonical path; finds nothing for other paths (404)", async () => {
    expect(matchApiPath("/v1/waitlist/")).toEqual({ redirect: "/v1/waitlist" });
    expect(matchApiPath("/v1/")).toEqual({ redirect: "/v1" });
    expect(matchApiPath("//v1/waitlist")).toEqual({ redirect: "/v1/waitlist" });
    expect(matchApiPath(`/v1//waitlist/${ID}/`)).toEqual({ redirect: `/v1/waitlist/${ID}` });
    for (const path of ["/v1", "/v1/waitlists", "/v1/waitlist/a/b", "/v1/openapiXjson", "/waitlist", "/v1/waitlist/%E0%A4%A/signup/x"]) {
      expect(matchApiPath(path), path).toBeNull();
    }
    const redirected = await send("GET", "/v1/waitlist/?limit=1");
    expect([redirected.status, redirected.headers.get("location"), redirected.headers.get("cache-control")]).toEqual([308, "/v1/waitlist?limit=1", "no-store"]);
    const missing = await send("DELETE", "/v1/nope");
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { code: string }).code).toBe("not_found");
  });
});
