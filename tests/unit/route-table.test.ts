import { readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import * as methods from "@/lib/api/methods";
import { API_ROUTES, openApiDocument, routeModule, type ApiPathTemplate } from "@/lib/api/route-table";
import { matchApiRoute } from "@/lib/server/api-routes";

// The route table (lib/api/route-table.ts) against what derives from it: the route files under
// app/v1, the OpenAPI paths and the production server's fast path.

const V1 = join(process.cwd(), "app", "v1");
const METHODS = ["DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT"];

/** Every app/v1/**\/route.ts but the catch-all 404 (app/v1/[[...path]]), by the template its folder spells. */
function routeFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(V1, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name !== "route.ts") continue;
    const folder = relative(V1, entry.parentPath);
    if (folder.split(sep).includes("[[...path]]")) continue;
    const template = `/${folder.split(sep).join("/")}`.replace(/\[(\w+)\]/g, "{$1}");
    files.set(template, join(entry.parentPath, entry.name));
  }
  return files;
}

const templates = API_ROUTES.map((route) => route.template);
const ID = "5c1e0b8e-1f0a-4c3e-9a57-0c6f1d2e3a4b";
const pathOf = (template: string, id = ID) => `/v1${template.replace("{id}", id)}`;

describe("the /v1 route table", () => {
  it("has a route file for every entry and an entry for every route file", () => {
    expect([...routeFiles().keys()].sort()).toEqual([...templates].sort());
  });

  it.each([...routeFiles()])("%s: the route file exports the table's module and force-dynamic, nothing else", async (template, file) => {
    const exported = (await import(file)) as Record<string, unknown>;
    expect(Object.keys(exported).sort()).toEqual([...METHODS, "dynamic"].sort());
    expect(exported.dynamic).toBe("force-dynamic");
    const fromTable = routeModule(template as ApiPathTemplate) as unknown as Record<string, unknown>;
    for (const method of METHODS) expect(exported[method], method).toBe(fromTable[method]);
    expect(fromTable.HEAD).toBe(fromTable.GET);
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) expect(fromTable[method], method).toBe(methods[method as keyof typeof methods]);
    // OPTIONS is the route's own: a public route answers CORS preflights from any origin.
    expect(fromTable.OPTIONS).toBeTypeOf("function");
  });

  it("gives the OpenAPI document exactly its paths and operations, public ones without security", () => {
    expect(Object.keys(openApiDocument.paths)).toEqual(templates);
    for (const { template, method, needsKey, operation } of API_ROUTES) {
      const documented = openApiDocument.paths[template]!;
      expect(Object.keys(documented)).toEqual([method.toLowerCase()]);
      expect(documented.get).toEqual(needsKey ? operation : { ...operation, security: [] });
      // A route that needs a key documents what a key can be refused with; a public one does not.
      for (const status of ["401", "403", "429"]) expect(status in operation.responses, `${template} ${status}`).toBe(needsKey);
      for (const parameter of operation.parameters.filter((parameter) => parameter.in === "path")) expect(template).toContain(`{${parameter.name}}`);
    }
  });

  it("gives the fast path GET and HEAD of each template, with its parameters decoded", () => {
    for (const template of templates) {
      for (const method of ["GET", "HEAD"]) {
        const match = matchApiRoute({ method, url: `${pathOf(template, "a%20b")}?limit=1` });
        expect(match?.handler, `${method} ${template}`).toBe(routeModule(template).GET);
        expect(match?.params).toEqual(template.includes("{id}") ? { id: "a b" } : {});
      }
    }
  });

  it("leaves everything else to Next.js: other methods, trailing slashes, unknown paths, undecodable segments", () => {
    for (const template of templates) {
      for (const method of ["OPTIONS", "POST", "DELETE", "TRACE"]) expect(matchApiRoute({ method, url: pathOf(template) }), `${method} ${template}`).toBeNull();
      expect(matchApiRoute({ method: "GET", url: `${pathOf(template)}/` })).toBeNull();
    }
    for (const url of ["/v1", "/v1/", "/v1/waitlists", "/v1/waitlist/a/b", "/v1/openapiXjson", "/v1/waitlist/%ZZ", "/waitlist", "/v1/waitlist/%E0%A4%A/signup"]) {
      expect(matchApiRoute({ method: "GET", url }), url).toBeNull();
    }
  });
});
