import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JsonSchema, OpenApiDocument } from "@/lib/api/openapi-types";
import { servedOpenApiText } from "./openapi-served";

// A client generated from the served document with openapi-typescript, as a TypeScript user of the
// API would generate it, and code that reads every field of every resource with the types a
// client needs: a field typed `never` (what an empty object schema gives) or a wrong type fails.

const CLIENT_CODE = `
import type { components, operations } from "./schema";

type Waitlist = components["schemas"]["Waitlist"];
type Signup = components["schemas"]["Signup"];
type SignupWithFields = components["schemas"]["SignupWithFields"];
type Problem = components["schemas"]["Problem"];
type IsNever<T> = [T] extends [never] ? true : false;
const notNever = <T>(value: T, _check: IsNever<T> extends false ? true : never) => value;

// Exactly these fields: a field added to or dropped from the document fails here.
const waitlistFields: Record<keyof Waitlist, true> = { id: true, name: true, website: true };
const signupFields: Record<keyof Signup, true> = { email: true, verified: true, referral: true, custom_inputs: true };

export function readWaitlist(waitlist: Waitlist): string {
  const id: string = waitlist.id;
  const name: string = waitlist.name;
  const website: string = waitlist.website;
  return [id, name, website, Object.keys(waitlistFields)].join();
}

export function readSignup(signup: Signup): string[] {
  const email: string = signup.email;
  const verified: boolean = signup.verified;
  const referral: boolean = signup.referral;
  const lines = [email, String(verified), String(referral), ...Object.keys(signupFields)];
  for (const input of signup.custom_inputs) {
    const label = notNever(input.label, true);
    const value = notNever(input.value, true);
    const other = notNever(input["company"], true);
    if (typeof label === "string") lines.push(label.toUpperCase());
    lines.push(JSON.stringify(value), JSON.stringify(other));
  }
  return lines;
}

export function readProblem(problem: Problem): string {
  const code: "unauthenticated" | "forbidden" | "invalid_parameter" | "not_found" | "method_not_allowed" | "rate_limited" | "internal" | "unavailable" = problem.code;
  const status: number = problem.status;
  const parameter: string | undefined = problem.parameter;
  return [problem.type, problem.title, problem.detail, problem.request_id, code, status, parameter].join();
}

// What the operations answer, as a generated client (openapi-fetch) would type them.
type Json<Operation, Status extends number> = Operation extends { responses: { [S in Status]: { content: { "application/json": infer Body } } } } ? Body : never;
export const list: Waitlist[] = [] as Json<operations["listWaitlists"], 200>;
export const one: Waitlist = {} as Json<operations["getWaitlist"], 200>;
export const signups: (Signup | SignupWithFields)[] = [] as Json<operations["listSignups"], 200>;
// With \`fields\`, every field is optional; created_at and id exist only there.
export function readSignupWithFields(signup: SignupWithFields): (string | boolean | number | undefined)[] {
  return [signup.email, signup.verified, signup.referral, signup.custom_inputs?.length, signup.created_at, signup.id];
}
export const etag: string = "" as operations["getWaitlist"]["responses"][200]["headers"]["ETag"];
export const cached: string = "" as operations["listWaitlists"]["responses"][304]["headers"]["ETag"];
export const query: { verified?: "true" | "false"; limit?: number } = {} as NonNullable<operations["listSignups"]["parameters"]["query"]>;
export const ifNoneMatch: string | undefined = undefined as NonNullable<operations["getWaitlist"]["parameters"]["header"]>["If-None-Match"];
`;

/** The same reading with one mistake: the type check must catch it. */
const WRONG_CODE = `import type { components } from "./schema";\nexport const wrong: number = ({} as components["schemas"]["Waitlist"]).name;\n`;

let dir: string;
let document: OpenApiDocument;
const errors = new Map<string, string[]>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "waitlist-openapi-client-"));
  const served = await servedOpenApiText();
  document = JSON.parse(served) as OpenApiDocument;
  writeFileSync(join(dir, "schema.ts"), astToString(await openapiTS(served)));
  const files = { client: CLIENT_CODE, wrong: WRONG_CODE };
  for (const [name, code] of Object.entries(files)) writeFileSync(join(dir, `${name}.ts`), code);
  const program = ts.createProgram(
    Object.keys(files).map((name) => join(dir, `${name}.ts`)),
    { strict: true, noEmit: true, types: [], target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, lib: ["lib.es2022.d.ts"] },
  );
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const name = diagnostic.file?.fileName.split("/").pop() ?? "(global)";
    errors.set(name, [...(errors.get(name) ?? []), ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")]);
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a client generated with openapi-typescript from /v1/openapi.json", () => {
  it("type-checks code that reads every field of every resource", () => {
    expect(Object.fromEntries([...errors].filter(([name]) => name !== "wrong.ts"))).toEqual({});
  });

  it("the client code reads every property the document defines", () => {
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      for (const property of Object.keys((schema.properties ?? {}) as Record<string, JsonSchema>)) expect(CLIENT_CODE, `${name}.${property}`).toContain(`.${property}`);
    }
    const items = (document.components.schemas.Signup!.properties as Record<string, { items: JsonSchema }>).custom_inputs!.items;
    for (const property of Object.keys(items.properties as object)) expect(CLIENT_CODE).toContain(`input.${property}`);
  });

  it("catches a wrong reading (the check is not vacuous)", () => {
    expect(errors.get("wrong.ts")?.join()).toMatch(/not assignable to type 'number'/);
  });
});
