import type { JsonSchema } from "@/lib/api/openapi-types";

/** A one-line, human reading of a JSON Schema: "string (uuid)", "array of Signup", "integer 1–1000". */
export function schemaText(schema: JsonSchema): string {
  if (typeof schema.$ref === "string") return schema.$ref.split("/").at(-1)!;
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as JsonSchema[]).map(schemaText).join(" or ");
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.type === "array") return `array of ${schema.items ? schemaText(schema.items as JsonSchema) : "anything"}`;
  if (schema.type === "object" && typeof schema.additionalProperties === "object") return `object of ${schemaText(schema.additionalProperties as JsonSchema)}`;
  const details = [
    typeof schema.format === "string" ? schema.format : null,
    typeof schema.minimum === "number" && typeof schema.maximum === "number" ? `${schema.minimum}–${schema.maximum}` : null,
    typeof schema.maxLength === "number" ? `at most ${schema.maxLength} characters` : null,
  ].filter(Boolean);
  return details.length ? `${String(schema.type)} (${details.join(", ")})` : String(schema.type ?? "any");
}
