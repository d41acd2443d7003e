import { expect, type APIRequestContext, type APIResponse } from "@playwright/test";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { JsonSchema, OpenApiDocument, ResponseObject } from "@/lib/api/openapi-types";

// Checks real responses against the OpenAPI document the server itself serves at /v1/openapi.json:
// the status is documented for the operation, required headers are present, every documented
// header matches its schema, and the body validates against the documented JSON Schema.

export type PathTemplate = "/waitlist" | "/waitlist/{id}" | "/waitlist/{id}/signup" | "/waitlist/{id}/events" | "/waitlist/{id}/stats" | "/openapi.json" | "/invitations/{token}" | "/invitations/{token}/redeem" | `/waitlist/{id}/signup/${"invite" | "reject" | "withdraw" | "restore" | "complete"}` | `/waitlist/{id}/signup/review/${"approve" | "discount"}` | "/waitlist/{id}/schedules" | "/waitlist/{id}/schedules/{schedule_id}" | "/waitlist/{id}/schedules/{schedule_id}/preview";

export class Contract {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(readonly document: OpenApiDocument) {
    addFormats(this.ajv);
  }

  static async load(request: APIRequestContext): Promise<Contract> {
    const response = await request.get("/v1/openapi.json");
    expect(response.status()).toBe(200);
    return new Contract((await response.json()) as OpenApiDocument);
  }

  /** The documented response for what was asked; `template` null means a path outside the API. */
  documentedResponse(template: PathTemplate | null, method: string, status: number): ResponseObject {
    if (template === null) {
      expect(status, "unknown paths are 404").toBe(404);
      // Answered before any key check: the 404 of an operation, without its rate-limit headers.
      const { headers = {}, ...notFound } = this.document.paths["/waitlist/{id}"]!.get!.responses["404"]!;
      return { ...notFound, headers: Object.fromEntries(Object.entries(headers).filter(([name]) => !name.startsWith("RateLimit"))) };
    }
    // Every answer on a path is documented on its operation, GET or POST (OPTIONS's 204 and other methods' 405 too);
    // a path with both (GET and POST /waitlist/{id}/signup) documents each method's answers on its own.
    const path = this.document.paths[template];
    // A schedule's PATCH and DELETE are documented under their own method; HEAD and the 405s of other methods under the path's GET or POST.
    const own = method === "PATCH" ? path?.patch : method === "DELETE" ? path?.delete : undefined;
    const operation = own ?? (method === "POST" ? (path?.post ?? path?.get) : (path?.get ?? path?.post ?? path?.patch));
    expect(operation, `${method} ${template} is documented`).toBeTruthy();
    const response = operation!.responses[String(status)];
    expect(response, `status ${status} is documented for ${method} ${template}`).toBeTruthy();
    return response!;
  }

  private validator(schema: JsonSchema): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = this.validators.get(key);
    if (!validate) {
      // Wrapped so that "#/components/schemas/..." references resolve inside the compiled schema.
      validate = this.ajv.compile({ allOf: [schema], components: { schemas: this.document.components.schemas } });
      this.validators.set(key, validate);
    }
    return validate;
  }

  /** Asserts the response matches the document and returns its body text. */
  async check(response: APIResponse, template: PathTemplate | null, method = "GET"): Promise<string> {
    const documented = this.documentedResponse(template, method, response.status());
    const actual = response.headers();
    for (const [name, header] of Object.entries(documented.headers ?? {})) {
      const value = actual[name.toLowerCase()];
      if (header.required) expect(value, `header ${name} on ${response.status()}`).toBeDefined();
      if (value !== undefined) {
        const validate = this.validator(header.schema);
        expect(validate(value), `header ${name}: ${value} ${this.ajv.errorsText(validate.errors)}`).toBe(true);
      }
    }
    for (const name of ["link", "allow", "www-authenticate"]) {
      if (actual[name] !== undefined) {
        const isDocumented = Object.keys(documented.headers ?? {}).some((documentedName) => documentedName.toLowerCase() === name);
        expect(isDocumented, `header ${name} is documented for ${response.status()}`).toBe(true);
      }
    }
    const text = await response.text();
    const [mediaType, media] = Object.entries(documented.content ?? {})[0] ?? [];
    if (method === "HEAD" || !media) {
      expect(text, "no body").toBe("");
      if (method === "HEAD" && mediaType) expect(actual["content-type"]).toContain(mediaType);
      return text;
    }
    expect(actual["content-type"]).toContain(mediaType);
    const validate = this.validator(media.schema);
    const body: unknown = JSON.parse(text);
    expect(validate(body), `body of ${response.status()}: ${this.ajv.errorsText(validate.errors)}`).toBe(true);
    return text;
  }

  /** Whether a value is valid against one component schema (a default signup against `Signup`, say). */
  conforms(component: string, value: unknown): boolean {
    return this.validator({ $ref: `#/components/schemas/${component}` })(value);
  }

  /** Checks the response and returns its parsed body. */
  async json<T = unknown>(response: APIResponse, template: PathTemplate | null, method = "GET"): Promise<T> {
    return JSON.parse(await this.check(response, template, method)) as T;
  }
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  request_id: string;
  parameter?: string;
}

/** A problem response: the documented shape, the code, the parameter and Request-Id = request_id. */
export async function expectProblem(
  contract: Contract,
  response: APIResponse,
  template: PathTemplate | null,
  expected: { status: number; code: string; parameter?: string },
  method = "GET",
): Promise<ProblemBody> {
  expect(response.status()).toBe(expected.status);
  const body = await contract.json<ProblemBody>(response, template, method);
  expect(body.code).toBe(expected.code);
  expect(body.status).toBe(expected.status);
  expect(body.parameter).toBe(expected.parameter);
  expect(body.request_id).toBe(response.headers()["request-id"]);
  expect(response.headers()["content-type"]).toBe("application/problem+json");
  return body;
}
