import { expect, test } from "@playwright/test";
import { Ajv2020 } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { eventFeedParamsSchema, signupListParamsSchema, waitlistListParamsSchema } from "@/lib/domain/list-params";
import { statsParamsSchema } from "@/lib/domain/funnel/schemas";
import { INPUT_PARAM_PREFIX } from "@/lib/domain/signups/filter";
import { Contract } from "../support/api-contract";

test("GET /v1/openapi.json serves an OpenAPI 3.1 document without a key", async ({ request }) => {
  const response = await request.get("/v1/openapi.json");
  expect(response.status()).toBe(200);
  expect(response.headers()["cache-control"]).toBe("public, no-cache");
  expect(response.headers()["request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  const contract = new Contract(await response.json());
  await contract.check(response, "/openapi.json");
  const { document } = contract;
  expect(document.openapi).toMatch(/^3\.1\./);
  expect(Object.keys(document.paths).sort()).toEqual(
    ["/openapi.json", "/waitlist", "/waitlist/{id}", "/waitlist/{id}/signup", "/waitlist/{id}/events", "/waitlist/{id}/stats", "/invitations/{token}", "/invitations/{token}/redeem", "/waitlist/{id}/schedules", "/waitlist/{id}/schedules/{schedule_id}", "/waitlist/{id}/schedules/{schedule_id}/preview", ...["complete", "invite", "reject", "restore", "withdraw", "review/approve", "review/discount"].map((action) => `/waitlist/{id}/signup/${action}`)].sort(),
  );
  expect(Object.keys(document.components.securitySchemes).sort()).toEqual(["apiKeyHeader", "bearerAuth"]);
  expect(document.components.securitySchemes.apiKeyHeader).toMatchObject({ type: "apiKey", in: "header", name: "X-API-Key" });
  expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
  // Every schema in the document is valid JSON Schema 2020-12.
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv);
  for (const schema of Object.values(document.components.schemas)) expect(() => ajv.compile(schema)).not.toThrow();
});

test("the documented query parameters are exactly the ones the server accepts", async ({ request }) => {
  const { document } = await Contract.load(request);
  const names = (path: string) => document.paths[path]!.get!.parameters.filter((parameter) => parameter.in === "query").map((parameter) => parameter.name).sort();
  expect(names("/waitlist")).toEqual(Object.keys(waitlistListParamsSchema.shape).sort());
  // input.<label> parameters are one exploded form object, whose property names are the parameter names.
  expect(names("/waitlist/{id}/signup")).toEqual([...Object.keys(signupListParamsSchema.shape), "inputs"].sort());
  const inputs = document.paths["/waitlist/{id}/signup"]!.get!.parameters.find((parameter) => parameter.name === "inputs")!;
  expect(inputs).toMatchObject({ style: "form", explode: true, schema: { type: "object", propertyNames: { pattern: `^${INPUT_PARAM_PREFIX.replace(".", "\\.")}.+$` } } });
  expect(names("/waitlist/{id}")).toEqual([]);
  expect(names("/waitlist/{id}/events")).toEqual(Object.keys(eventFeedParamsSchema.shape).sort());
  expect(names("/waitlist/{id}/stats")).toEqual(Object.keys(statsParamsSchema.shape).sort());
  for (const path of ["/waitlist", "/waitlist/{id}", "/waitlist/{id}/signup", "/waitlist/{id}/events", "/waitlist/{id}/stats"]) {
    const operation = document.paths[path]!.get!;
    expect(operation.security, `${path} uses the document's security`).toBeUndefined();
    for (const status of ["200", "400", "401", "403", "500"]) expect(operation.responses[status], `${path} ${status}`).toBeDefined();
    expect(operation["x-codeSamples"].some((sample) => sample.source.includes("curl"))).toBe(true);
  }
  expect(document.paths["/openapi.json"]!.get!.security).toEqual([]);
});
