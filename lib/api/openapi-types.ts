// The slice of OpenAPI 3.1 this API uses, so the document is checked as it is written and the
// reference page can walk it with types.

export type JsonSchema = { [keyword: string]: unknown };

export interface ParameterObject {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  description: string;
  /** How an array or object value is written in the query; only on such parameters. */
  style?: "form";
  explode?: boolean;
  schema: JsonSchema;
}

export interface HeaderObject {
  description: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject>;
  content?: Record<string, { schema: JsonSchema }>;
}

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

export interface OperationObject {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  security?: Record<string, string[]>[];
  parameters: ParameterObject[];
  requestBody?: { required: boolean; description: string; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, ResponseObject>;
  "x-codeSamples": CodeSample[];
}

export type HttpMethod = "get" | "head" | "options" | "post" | "put" | "patch" | "delete";

export interface OpenApiDocument {
  openapi: "3.1.1";
  jsonSchemaDialect: string;
  info: { title: string; version: string; description: string; contact: { name: string }; license: { name: string; identifier: string } };
  servers: { url: string; description: string }[];
  tags: { name: string; description: string }[];
  security: Record<string, string[]>[];
  paths: Record<string, Partial<Record<HttpMethod, OperationObject>>>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, { type: "http"; scheme: string; description: string } | { type: "apiKey"; in: "header"; name: string; description: string }>;
  };
}
