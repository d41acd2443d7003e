import { z } from "zod";
import { MAX_FILTER_TEXT, parseInstant, type InputMatch, type SignupFilter } from "./filter";

// The zod schemas of the filter parameters, shared by /v1 (lib/domain/list-params.ts) and the CLI
// (lib/cli/export-filter.ts). Server-side only: see the note at the top of filter.ts.

export const booleanWord = z.enum(["true", "false"], { error: 'must be "true" or "false"' }).transform((word) => word === "true");

const INSTANT_FORMS = "must be an ISO 8601 date (2026-10-01) or date-time with an offset (2026-10-01T09:30:00Z)";

const instantParam = z.string().transform((text, context) => {
  const instant = parseInstant(text);
  if (instant) return instant;
  // "…T09:30:00+02:00" unencoded in a URL arrives as "…T09:30:00 02:00": a + in a query string is a space.
  const plusAsSpace = / \d{2}:\d{2}$/.test(text) && parseInstant(text.replace(/ (?=\d{2}:\d{2}$)/, "+")) !== undefined;
  context.addIssue({ code: "custom", message: plusAsSpace ? `${INSTANT_FORMS}; in a URL, write the + of an offset as %2B` : INSTANT_FORMS });
  return z.NEVER;
});

const filterText = z.string().min(1, "must not be empty").max(MAX_FILTER_TEXT, `must be at most ${MAX_FILTER_TEXT} characters`);

/** The filter parameters of /v1 signup lists, by their query names (custom inputs aside). */
export const signupFilterParamsShape = {
  verified: booleanWord.optional(),
  referral: booleanWord.optional(),
  created_since: instantParam.optional(),
  created_until: instantParam.optional(),
  email: filterText.optional(),
  email_contains: filterText.optional(),
};

type FilterParams = z.output<z.ZodObject<typeof signupFilterParamsShape>>;

/** A SignupFilter from parsed parameters. */
export function filterFromParams(params: FilterParams, inputs: InputMatch[]): SignupFilter {
  return {
    verified: params.verified,
    referral: params.referral,
    createdSince: params.created_since,
    createdUntil: params.created_until,
    email: params.email,
    emailContains: params.email_contains,
    inputs: inputs.length > 0 ? inputs : undefined,
  };
}
