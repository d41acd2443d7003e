import "server-only";
import { z } from "zod";
import type { SignupRow } from "./row";
import { SIGNUP_STATUSES } from "./status";
import { SOURCE_FIELDS } from "../funnel/source";

// The API's view of a signup: by default exactly the four fields of the specification; with
// `fields`, the chosen ones among those four, `created_at` and `id`. The OpenAPI components, the
// TypeScript type and the JSON that SQLite builds for pages and streams (signupJson in queries.ts:
// one SQL expression per field, in the order of SIGNUP_FIELDS) all follow these schemas.

const statusSchema = z.enum(SIGNUP_STATUSES).meta({
  description: "`waiting` (every signup at first), `invited`, `completed` (the invitation was used) or `rejected`.",
});

export const signupResponseSchema = z
  .strictObject({
    email: z.string().meta({ format: "email", description: "The address that signed up." }),
    verified: z.boolean().meta({ description: "Whether the address was verified." }),
    referral: z.boolean().meta({ description: "Whether the signup came from a referral." }),
    custom_inputs: z
      .array(
        // Objects as imported: the CSV import writes {label, value} (the column and the cell, both
        // strings); a JSON import may store any fields and values, so none is narrowed here.
        z.looseObject({
          label: z.unknown().optional().meta({ description: "The input's name: a string when written by the CSV import (its column), any JSON value from a JSON import." }),
          value: z.unknown().optional().meta({ description: "The answer: a string when written by the CSV import (its cell), any JSON value from a JSON import." }),
        }),
      )
      .meta({
        description: "The custom input objects given at signup, as stored; `[]` when there are none. The usual shape is `{\"label\": …, \"value\": …}`; other fields are kept as given.",
      }),
  })
  .meta({ description: "A signup as returned without `fields`: exactly these four fields." });
export type SignupResponse = z.infer<typeof signupResponseSchema>;

/** The fields a client may ask for with `fields`: the specification's four, then `created_at`, `id`, `status` and `status_changed_at`, then where the signup came from (lib/domain/funnel/source.ts). */
export const SIGNUP_FIELDS = ["email", "verified", "referral", "custom_inputs", "created_at", "id", "status", "status_changed_at", ...SOURCE_FIELDS] as const;
export type SignupField = (typeof SIGNUP_FIELDS)[number];

/** What a signup object holds when `fields` is not given: exactly the specification's four. */
export const DEFAULT_SIGNUP_FIELDS: readonly SignupField[] = Object.keys(signupResponseSchema.shape) as (keyof SignupResponse)[];

const sourceSchema = (what: string) => z.string().nullable().meta({ description: `${what}, given at join; null when none was.` });

/**
 * A signup as returned with `fields`: exactly the fields it names, in the order of SIGNUP_FIELDS.
 * Every property is optional here because which ones are present depends on the request.
 */
export const signupWithFieldsSchema = z
  .strictObject({
    ...signupResponseSchema.shape,
    created_at: z.string().meta({ format: "date-time", description: "When the signup was made: ISO 8601 in UTC with milliseconds (`2026-10-01T09:30:00.000Z`)." }),
    id: z.string().meta({
      description: "The signup's id: an opaque string, stable for the life of the signup. The dashboard shows the signup at `/waitlists/{waitlist id}/signups/{id}`.",
    }),
    status: statusSchema,
    status_changed_at: z
      .string()
      .nullable()
      .meta({ format: "date-time", description: "When the status last changed (ISO 8601 in UTC with milliseconds); null for a signup that never left `waiting`." }),
    utm_source: sourceSchema("The `utm_source` of the link that brought the person"),
    utm_medium: sourceSchema("The `utm_medium` of that link"),
    utm_campaign: sourceSchema("The `utm_campaign` of that link"),
    referrer: sourceSchema("The site that referred the person (the host of the join page's Referer, or the join's `referrer`)"),
  })
  .partial()
  .meta({ description: "A signup as returned with `fields`: exactly the fields named there (any of these twelve), in this order." });

/** A signup changed by an action (invite, reject, withdraw, restore, complete): the specification's four fields and its new status. */
export const signupWithStatusSchema = z
  .strictObject({ ...signupResponseSchema.shape, status: statusSchema })
  .meta({ description: "A signup changed by a status action: the specification's four fields and its status after the action." });
export type SignupWithStatus = z.infer<typeof signupWithStatusSchema>;

export function toSignupWithStatus(row: SignupRow): SignupWithStatus {
  return { ...toSignupResponse(row), status: row.status };
}

export function toSignupResponse(row: SignupRow): SignupResponse {
  return { email: row.email, verified: row.verified, referral: row.referral, custom_inputs: row.customInputs };
}
