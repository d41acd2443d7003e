import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { hasInvertedRange, INPUT_PARAM_PREFIX, splitInputParams, type SignupFilter } from "@/lib/domain/signups/filter";
import { filterFromParams, signupFilterParamsShape } from "@/lib/domain/signups/filter-params";
import { parseOptions } from "./output";

/** The filter options of `signups export`, as commander gives them. */
export interface FilterOptions {
  verified?: string;
  referral?: string;
  createdSince?: string;
  createdUntil?: string;
  email?: string;
  emailContains?: string;
  /** `label=value`, once per label. */
  input: string[];
}

// Each option is read as the /v1 query parameter it stands for, through the same strict schema, so
// that a value /v1 refuses is refused here with the same words.
const PARAM_OF = {
  verified: "verified",
  referral: "referral",
  createdSince: "created_since",
  createdUntil: "created_until",
  email: "email",
  emailContains: "email_contains",
} as const satisfies Record<Exclude<keyof FilterOptions, "input">, keyof typeof signupFilterParamsShape>;

const filterParamsSchema = z.strictObject(signupFilterParamsShape);

/** The option of a query parameter: `created_since` → `--created-since`. */
function optionOf(param: string): string {
  return `--${param.replaceAll("_", "-")}`;
}

function invalidInput(reason: string): AppError {
  return new AppError("invalid_parameter", `invalid --input: ${reason}`, "--input");
}

/** Adds `--input label=value` as the parameter `input.label`. */
function addInputParam(text: string, params: Record<string, string>): void {
  const equals = text.indexOf("=");
  if (equals === -1) throw invalidInput(`must be label=value (got ${JSON.stringify(text)})`);
  const label = text.slice(0, equals);
  const name = INPUT_PARAM_PREFIX + label;
  if (Object.hasOwn(params, name)) throw invalidInput(`the label ${JSON.stringify(label)} is given more than once`);
  params[name] = text.slice(equals + 1);
}

/** The SignupFilter that `signups export`'s options select; a bad value is one AppError naming its option. */
export function parseFilterOptions(options: FilterOptions): SignupFilter {
  const params: Record<string, string> = {};
  for (const [option, param] of Object.entries(PARAM_OF)) {
    const value = options[option as keyof typeof PARAM_OF];
    if (value !== undefined) params[param] = value;
  }
  for (const text of options.input) addInputParam(text, params);
  const { rest, inputs } = splitInputParams(params, () => {
    throw invalidInput('the label before "=" must not be empty');
  });
  const filter = filterFromParams(parseOptions(filterParamsSchema, rest, optionOf), inputs);
  if (hasInvertedRange(filter)) throw new AppError("invalid_parameter", "invalid --created-until: must be after --created-since", "--created-until");
  return filter;
}
