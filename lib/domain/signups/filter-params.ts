import "server-only";
import { z } from "zod";
import { FILTER_KEYS, SIGNUP_FILTERS, type FilterDescriptor, type FilterKey, type InputMatch, type SignupFilter } from "./filter";

// The zod schemas of the filter parameters, made from the descriptors of filter.ts: /v1
// (lib/domain/list-params.ts) and the CLI (lib/cli/export-filter.ts) parse with them. Server-side
// only: see the note at the top of filter.ts.

/** A descriptor's parser as a zod schema of its parameter's text. */
export function parameterSchema<Value>(descriptor: FilterDescriptor<Value>) {
  return z.string().transform((text, context): Value => {
    const parsed = descriptor.parse(text);
    if (parsed.ok) return parsed.value;
    context.addIssue({ code: "custom", message: parsed.message });
    return z.NEVER;
  });
}

type FilterParamsShape = { [Key in FilterKey as (typeof SIGNUP_FILTERS)[Key]["name"]]: z.ZodOptional<ReturnType<typeof parameterSchema<NonNullable<SignupFilter[Key]>>>> };

/** The filter parameters of /v1 signup lists, by their query names (custom inputs aside). */
export const signupFilterParamsShape = Object.fromEntries(
  FILTER_KEYS.map((key) => [SIGNUP_FILTERS[key].name, parameterSchema(SIGNUP_FILTERS[key] as FilterDescriptor<unknown>).optional()]),
) as unknown as FilterParamsShape;

/** A SignupFilter from parsed parameters (by their query names). */
export function filterFromParams(params: Record<string, unknown>, inputs: InputMatch[]): SignupFilter {
  const filter: SignupFilter = Object.fromEntries(FILTER_KEYS.map((key) => [key, params[SIGNUP_FILTERS[key].name]]));
  return { ...filter, inputs: inputs.length > 0 ? inputs : undefined };
}
