import { Ajv2020 } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { openApiDocument } from "@/lib/api/route-table";
import { signupResponseSchema } from "@/lib/domain/signups/response";
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
];

describe("the OpenAPI components of the resources", () => {
  it.each([
    ["Waitlist", waitlistResponseSchema, WAITLISTS],
    ["Signup", signupResponseSchema, SIGNUPS],
  ] as const)("%s is the JSON Schema of the zod response schema, descriptions included, and agrees with it", (name, schema, samples) => {
    const component = openApiDocument.components.schemas[name]!;
    const { $schema: _dialect, ...fromZod } = z.toJSONSchema(schema, { target: "draft-2020-12", io: "output" });
    expect(component).toEqual(fromZod);
    for (const property of Object.values(component.properties as Record<string, { description?: string }>)) expect(property.description).toBeTruthy();
    const validate = ajv.compile(component);
    for (const sample of samples) expect(validate(sample), JSON.stringify(sample)).toBe(schema.safeParse(sample).success);
  });
});
