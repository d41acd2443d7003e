import type { Metadata } from "next";
import { headers } from "next/headers";
import { curlSetup } from "@/lib/api/openapi";
import { openApiDocument } from "@/lib/api/route-table";
import { focusRing } from "@/components/styles";
import { requestOrigin } from "@/lib/http/origin";
import type { HttpMethod, JsonSchema, OperationObject, ResponseObject } from "@/lib/api/openapi-types";
import { OperationSection, operationAnchor } from "./operation-section";
import { CodeBlock, Prose } from "./prose";
import { schemaText } from "./schema-text";

export const metadata: Metadata = { title: "API reference" };

// The reference is rendered from the same OpenAPI document that /v1/openapi.json serves: there is no second copy.

function operations() {
  return Object.entries(openApiDocument.paths).flatMap(([path, item]) =>
    (Object.entries(item) as [HttpMethod, OperationObject][]).map(([method, operation]) => ({ path, method, operation })),
  );
}

/** Every response in the document that carries a given problem code, e.g. "`not_found`: ...". */
function responsesWithCode(code: string): ResponseObject[] {
  const all = operations().flatMap(({ operation }) => Object.values(operation.responses));
  const seen = new Set<string>();
  return all.filter((response) => response.description.startsWith(`\`${code}\``) && !seen.has(response.description) && seen.add(response.description));
}

const sectionTitle = "text-xl font-semibold";

export default async function ApiReferencePage() {
  const { info, components } = openApiDocument;
  const problem = components.schemas.Problem as { properties: { code: { enum: string[] }; status: JsonSchema } };
  const origin = requestOrigin(await headers());
  return (
    <div className="space-y-10">
      <header className="space-y-3">
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Version {info.version}</p>
        <h1 className="text-3xl font-semibold">{info.title} reference</h1>
        <p>
          The machine-readable contract is{" "}
          <a className="text-blue-700 underline dark:text-blue-400" href="/v1/openapi.json">
            /v1/openapi.json
          </a>{" "}
          (OpenAPI {openApiDocument.openapi}); this page is rendered from it.
        </p>
        <nav aria-label="Endpoints">
          <ul className="list-disc space-y-1 pl-6">
            {operations().map(({ path, method, operation }) => (
              <li key={operation.operationId}>
                <a className="text-blue-700 underline dark:text-blue-400" href={`#${operationAnchor(operation)}`}>
                  {operation.summary}
                </a>{" "}
                <code className="break-all font-mono text-sm">
                  {method.toUpperCase()} /v1{path}
                </code>
              </li>
            ))}
          </ul>
        </nav>
      </header>

      <section aria-labelledby="overview" className="space-y-4">
        <h2 id="overview" className={sectionTitle}>
          Overview
        </h2>
        <Prose text={info.description} />
      </section>

      <section aria-labelledby="setup" className="space-y-3">
        <h2 id="setup" className={sectionTitle}>
          Before the examples
        </h2>
        <p>Every example reads the server address and your key from these shell variables:</p>
        <CodeBlock code={curlSetup(origin)} />
      </section>

      {operations().map(({ path, method, operation }) => (
        <OperationSection key={operation.operationId} path={path} method={method} operation={operation} />
      ))}

      <section aria-labelledby="errors" className="space-y-4 border-t border-zinc-200 pt-8 dark:border-zinc-800">
        <h2 id="errors" className={sectionTitle}>
          Error codes
        </h2>
        <dl className="space-y-4">
          {problem.properties.code.enum.map((code) => (
            <div key={code} id={`error-${code}`} className="scroll-mt-6">
              <dt className="font-mono font-semibold">{code}</dt>
              <dd className="mt-1 space-y-1 pl-4">
                {responsesWithCode(code).map((response) => (
                  <Prose key={response.description} text={response.description} />
                ))}
                {responsesWithCode(code).length === 0 && <p>Reserved: not returned today.</p>}
              </dd>
            </div>
          ))}
        </dl>
      </section>

      <section aria-labelledby="schemas" className="space-y-3 border-t border-zinc-200 pt-8 dark:border-zinc-800">
        <h2 id="schemas" className={sectionTitle}>
          Objects
        </h2>
        {Object.entries(components.schemas).map(([name, schema]) => (
          <details key={name} id={`schema-${name}`} className="space-y-2">
            <summary className={`${focusRing} cursor-pointer rounded-sm`}>
              <h3 className="inline font-semibold">{name}</h3>
            </summary>
            {typeof schema.description === "string" && <Prose text={schema.description} />}
            <ul className="space-y-2">
              {Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).map(([field, property]) => (
                <li key={field}>
                  <code className="font-mono font-semibold">{field}</code>{" "}
                  <span className="font-mono text-xs text-zinc-600 dark:text-zinc-400">
                    {schemaText(property)}
                    {(schema.required as string[] | undefined)?.includes(field) ? ", always present" : ", optional"}
                  </span>
                  {typeof property.description === "string" && <Prose text={property.description} />}
                </li>
              ))}
            </ul>
          </details>
        ))}
      </section>

      <section aria-labelledby="security" className="space-y-3 border-t border-zinc-200 pt-8 dark:border-zinc-800">
        <h2 id="security" className={sectionTitle}>
          Authentication schemes
        </h2>
        {Object.entries(components.securitySchemes).map(([name, scheme]) => (
          <div key={name}>
            <h3 className="font-mono font-semibold">{name}</h3>
            <Prose text={scheme.description} />
          </div>
        ))}
      </section>
    </div>
  );
}
