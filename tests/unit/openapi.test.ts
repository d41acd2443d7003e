import { Ajv2020 } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { openApiDocument } from "@/lib/api/route-table";
import { INPUT_PARAM_PREFIX, MAX_INPUT_FILTERS } from "@/lib/domain/signups/filter";
import { SIGNUP_FIELDS, signupResponseSchema, signupWithFieldsSchema } from "@/lib/domain/signups/response";
import { waitlistResponseSchema } from "@/lib/domain/waitlists/response";

const ajv = new Ajv2020({ strict: false });
addFormats(ajv);

const WAITLISTS: unknown[] = [
  { id: "5c1e0b8e-1f0a-4c3e-9a57-0c6f1d2e3a4b", name: "Nimbus beta", website: "https://nimbus.example" },
  { id: "5C1E0B8E-1F0A-4C3E-9A57-0C6F1D2E3A4B", name: "Upper-case id", website: "https://nimbus.example" },
  { id: "5c1e0b8e-1f0a-4c3e-9a57-0c6f1d2e3a4b", name: "", website: "https://nimbus.example" },
  { id: "5c1e0b8e-1f0a-4c3e-9a57-0c6f1d2e3a4b", name: "No website" },
  { id: "5c1e0b8e-1f0a-4c3e-9a57-0c6f1d2e3a4b", name: "Extra field", website: "https://nimbus.example", created_at: "2026-01-01" },
  { id: 1, name: "Numeric id", website: "https://nimbus.example" },
];
const SIGNUPS: unknown[] = [
  { email: "ada@example.com", verified: true, referral: false, custom_inputs: [] },
  { email: "ada@example.com", verified: true, referral: false, custom_inputs: [{ label: "company", value: "Acme", n: 1 }] },
  { email: "ada@example.com", verified: "true", referral: false, custom_inputs: [] },
  { email: "ada@example.com", verified: true, referral: false, custom_inputs: [[]] },
  { email: "ada@example.com", verified: true, referral: false, custom_inputs: ["x"] },
  { email: "ada@example.com", verified: true, referral: false },
  { email: "ada@example.com", verified: true, referral: false, custom_inputs: [], id: 7 },
  { email: "ada@example.com", verified: true, referral: false, custom_inputs: [], created_at: "2026-10-01T09:30:00.000Z", id: "12" },
];
const SIGNUPS_WITH_FIELDS: unknown[] = [
  ...SIGNUPS,
  { id: "12" },
  { created_at: "2026-10-01T09:30:00.000Z", id: "12" },
  { email: "ada@example.com", created_at: "2026-10-01T09:30:00.000Z" },
  { id: 12 },
  { email: "ada@example.com", phone: "555" },
  { created_at: 1790847000000 },
];

describe("the OpenAPI components of the resources", () => {
  it.each([
    ["Waitlist", waitlistResponseSchema, WAITLISTS],
    ["Signup", signupResponseSchema, SIGNUPS],
    ["SignupWithFields", signupWithFieldsSchema, SIGNUPS_WITH_FIELDS],
  ] as const)("%s is the JSON Schema of the zod response schema, descriptions included, and agrees with it", (name, schema, samples) => {
    const component = openApiDocument.components.schemas[name]!;
    const { $schema: _dialect, ...fromZod } = z.toJSONSchema(schema, { target: "draft-2020-12", io: "output" });
    expect(component).toEqual(fromZod);
    for (const property of Object.values(component.properties as Record<string, { description?: string }>)) expect(property.description).toBeTruthy();
    const validate = ajv.compile(component);
    for (const sample of samples) expect(validate(sample), JSON.stringify(sample)).toBe(schema.safeParse(sample).success);
  });
});

describe("the signup list's parameters as clients write them", () => {
  const parameters = openApiDocument.paths["/waitlist/{id}/signup"]!.get!.parameters;
  const parameter = (name: string) => parameters.find((entry) => entry.name === name)!;

  it("describes input.<label> filters as an exploded form object whose property names are the parameter names", () => {
    const inputs = parameter("inputs");
    expect(inputs).toMatchObject({ in: "query", style: "form", explode: true, schema: { type: "object", additionalProperties: { type: "string" }, maxProperties: MAX_INPUT_FILTERS } });
    const names = ajv.compile({ type: "object", propertyNames: inputs.schema.propertyNames });
    for (const name of [`${INPUT_PARAM_PREFIX}company`, `${INPUT_PARAM_PREFIX}a.b`, `${INPUT_PARAM_PREFIX} `]) expect(names({ [name]: "x" }), name).toBe(true);
    for (const name of [INPUT_PARAM_PREFIX, "inputs", "company", "inputXcompany"]) expect(names({ [name]: "x" }), name).toBe(false);
  });

  it("describes fields as a comma-separated list of the known fields, and the range as dates or date-times", () => {
    expect(parameter("fields")).toMatchObject({ style: "form", explode: false, schema: { type: "array", items: { enum: [...SIGNUP_FIELDS] } } });
    const instant = ajv.compile(parameter("created_since").schema);
    for (const text of ["2026-10-01", "2026-10-01T09:30:00Z", "2026-10-01T11:30:00.250+02:00"]) expect(instant(text), text).toBe(true);
    for (const text of ["2026-02-30", "2026-10-01T09:30:00", "yesterday"]) expect(instant(text), text).toBe(false);
    expect(parameter("created_until").schema).toEqual(parameter("created_since").schema);
  });

  it("answers with Signup objects, or SignupWithFields objects when fields is given", () => {
    const media = openApiDocument.paths["/waitlist/{id}/signup"]!.get!.responses["200"]!.content!["application/json"]!;
    expect(media.schema).toEqual({ type: "array", items: { anyOf: [{ $ref: "#/components/schemas/Signup" }, { $ref: "#/components/schemas/SignupWithFields" }] } });
  });
});
