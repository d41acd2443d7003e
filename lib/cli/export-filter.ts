import type { Command } from "commander";
import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { cliOption, FILTER_KEYS, hasInvertedRange, INPUT_FILTER, INPUT_PARAM_PREFIX, SIGNUP_FILTERS, splitInputParams, type SignupFilter } from "@/lib/domain/signups/filter";
import { filterFromParams, signupFilterParamsShape } from "@/lib/domain/signups/filter-params";
import { parseOptions } from "./output";

/** The filter options of `signups export`, as commander gives them: `--created-since` as `createdSince`. */
export type FilterOptions = { [Key in keyof typeof SIGNUP_FILTERS]?: string } & {
  /** `label=value`, once per label. */
  input: string[];
};

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** Adds an option per filter descriptor (`--created-since <date>`), and `--input label=value`. */
export function addFilterOptions(command: Command): Command {
  for (const key of FILTER_KEYS) {
    const { name, cli } = SIGNUP_FILTERS[key];
    command.option(`${cliOption(name)} ${cli.argument}`, cli.help);
  }
  return command.option(`${INPUT_FILTER.cli.option} ${INPUT_FILTER.cli.argument}`, INPUT_FILTER.cli.help, collect, []);
}

// Each option is read as the /v1 query parameter it stands for, through the same strict schema, so
// that a value /v1 refuses is refused here with the same words.
const filterParamsSchema = z.strictObject(signupFilterParamsShape);

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
  for (const key of FILTER_KEYS) {
    const value = options[key];
    if (value !== undefined) params[SIGNUP_FILTERS[key].name] = value;
  }
  for (const text of options.input) addInputParam(text, params);
  const { rest, inputs } = splitInputParams(params, () => {
    throw invalidInput('the label before "=" must not be empty');
  });
  const filter = filterFromParams(parseOptions(filterParamsSchema, rest, cliOption), inputs);
  const [since, until] = [cliOption(SIGNUP_FILTERS.createdSince.name), cliOption(SIGNUP_FILTERS.createdUntil.name)];
  if (hasInvertedRange(filter)) throw new AppError("invalid_parameter", `invalid ${until}: must be after ${since}`, until);
  return filter;
}
