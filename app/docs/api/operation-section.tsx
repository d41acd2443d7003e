import type { HttpMethod, OperationObject, ResponseObject } from "@/lib/api/openapi-types";
import { focusRing } from "@/components/styles";
import { CodeBlock, Prose } from "./prose";
import { schemaText } from "./schema-text";

const cell = "border-t border-zinc-200 px-3 py-2 align-top dark:border-zinc-800";
// Parameters, responses and examples fold away, so that the page reads as a list of operations (a link to a part inside opens it).
const summaryClass = `${focusRing} cursor-pointer rounded-sm`;
const head = "px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400";

export function operationAnchor(operation: OperationObject) {
  return `op-${operation.operationId}`;
}

function ResponseBody({ response }: { response: ResponseObject }) {
  const [mediaType, media] = Object.entries(response.content ?? {})[0] ?? [];
  return (
    <>
      <Prose text={response.description} />
      {mediaType && media && (
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          Body: <code className="font-mono">{mediaType}</code>, {schemaText(media.schema)}
        </p>
      )}
    </>
  );
}

export function OperationSection({ method, path, operation }: { method: HttpMethod; path: string; operation: OperationObject }) {
  return (
    <section id={operationAnchor(operation)} aria-labelledby={`${operationAnchor(operation)}-title`} className="scroll-mt-6 space-y-4 border-t border-zinc-200 pt-8 dark:border-zinc-800">
      <h2 id={`${operationAnchor(operation)}-title`} className="text-xl font-semibold">
        {operation.summary}
      </h2>
      <p className="break-all font-mono text-sm">
        <span className="rounded bg-emerald-100 px-1.5 py-0.5 font-semibold text-emerald-900 dark:bg-emerald-900/50 dark:text-emerald-200">{method.toUpperCase()}</span>{" "}
        /v1{path}
      </p>
      <Prose text={operation.description} />

      {operation.parameters.length > 0 && (
        <details className="space-y-2">
          <summary className={summaryClass}>
            <h3 className="inline font-semibold">Parameters ({operation.parameters.length})</h3>
          </summary>
          <div tabIndex={0} className="overflow-x-auto rounded-md border border-zinc-200 dark:border-zinc-800">
            <table className="w-full text-sm">
              <thead>
                <tr>
                  <th className={head}>Name</th>
                  <th className={head}>In</th>
                  <th className={head}>Type</th>
                  <th className={head}>Description</th>
                </tr>
              </thead>
              <tbody>
                {operation.parameters.map((parameter) => (
                  <tr key={parameter.name}>
                    <td className={`${cell} font-mono`}>
                      {parameter.name}
                      {parameter.required && <span className="ml-1 text-xs text-red-700 dark:text-red-400">required</span>}
                    </td>
                    <td className={cell}>{parameter.in}</td>
                    <td className={`${cell} font-mono text-xs`}>{schemaText(parameter.schema)}</td>
                    <td className={cell}>
                      <Prose text={parameter.description} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      )}

      <details className="space-y-2">
        <summary className={summaryClass}>
          <h3 className="inline font-semibold">Responses ({Object.keys(operation.responses).length})</h3>
        </summary>
        <div tabIndex={0} className="overflow-x-auto rounded-md border border-zinc-200 dark:border-zinc-800">
          <table className="w-full text-sm">
            <thead>
              <tr>
                <th className={head}>Status</th>
                <th className={head}>Meaning</th>
                <th className={head}>Headers</th>
              </tr>
            </thead>
            <tbody>
              {Object.entries(operation.responses).map(([status, response]) => (
                <tr key={status}>
                  <td className={`${cell} font-mono font-semibold`}>{status}</td>
                  <td className={cell}>
                    <ResponseBody response={response} />
                  </td>
                  <td className={`${cell} font-mono text-xs`}>{Object.keys(response.headers ?? {}).join(", ")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>

      <details className="space-y-3">
        <summary className={summaryClass}>
          <h3 className="inline font-semibold">Examples ({operation["x-codeSamples"].length})</h3>
        </summary>
        {operation["x-codeSamples"].map((sample) => (
          <CodeBlock key={sample.label} label={sample.label} code={sample.source} />
        ))}
      </details>
    </section>
  );
}
