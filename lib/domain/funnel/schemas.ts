import "server-only";
import { z } from "zod";
import { DAY_MS } from "@/lib/core/time";
import { invalidParameter } from "@/lib/core/errors";
import { parseInstant } from "@/lib/core/instant";
import type { FunnelRange } from "./stats";

// GET /v1/waitlist/{id}/stats and `waitlists stats`: the range they take and the answer they give, as
// zod schemas the handler and the CLI parse with and the OpenAPI document shows.

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const dayParam = z
  .string()
  .refine((text) => DATE_ONLY.test(text) && parseInstant(text) !== undefined, "must be a date (YYYY-MM-DD, a day in UTC) that exists")
  .meta({ format: "date", examples: ["2026-10-01"] });

export const statsParamsSchema = z.strictObject({
  from: dayParam.optional().meta({ description: "The first day of joining counted (UTC, inclusive). Default: the list's first." }),
  to: dayParam.optional().meta({ description: "The last day of joining counted (UTC, inclusive): `from=2026-10-01&to=2026-10-31` is October. Not before `from`. Default: no end." }),
});

/** The range of parsed parameters (a query's, or the CLI's options): a 400 naming `to` when it is before `from`. */
export function statsRangeOf({ from, to }: z.output<typeof statsParamsSchema>): FunnelRange {
  const day = (text: string | undefined) => (text === undefined ? undefined : Math.floor(parseInstant(text)!.getTime() / DAY_MS));
  const range = { fromDay: day(from), toDay: day(to) };
  if (range.fromDay !== undefined && range.toDay !== undefined && range.toDay < range.fromDay) throw invalidParameter("to", 'The query parameter "to" must not be before "from".');
  return range;
}

const count = (description: string) => z.number().int().min(0).meta({ description });
const rate = (description: string) => z.number().min(0).nullable().meta({ description: `${description}; null when the divisor is 0. Rounded to 4 decimals.` });

const stageShape = {
  joined: count("Signups that joined (the page, the API, an import)."),
  referred: count("Of them, those that came with a referral."),
  verified: count("Of them, those whose address is verified."),
  invited: count("Of them, those invited at least once."),
  completed: count("Of them, those completed (the invitation redeemed, or completed by address)."),
  expired: count("Of them, those whose invitation expired at least once (`signup.invitation_expired`)."),
};

const ratesSchema = z
  .strictObject({
    view_to_join: rate("joined ÷ join-page views (only in `rates` of the whole range)"),
    join_to_verified: rate("verified ÷ joined"),
    join_to_invited: rate("invited ÷ joined"),
    invited_to_completed: rate("completed ÷ invited"),
    join_to_completed: rate("completed ÷ joined"),
    invited_to_expired: rate("expired ÷ invited"),
  })
  .meta({ description: "Conversion rates between the stages." });

export const funnelStatsResponseSchema = z
  .strictObject({
    from: z.string().nullable().meta({ format: "date", description: "`from` as asked, or null." }),
    to: z.string().nullable().meta({ format: "date", description: "`to` as asked, or null." }),
    totals: z.strictObject({ ...stageShape, views: count("Views of the join page on the days of the range (counted by the server: no cookie, no third party).") }),
    rates: ratesSchema,
    referral_factor: rate("referred joins ÷ joins"),
    median_hours: z
      .strictObject({
        join_to_invite: z.number().nullable().meta({ description: "From joining to the first invitation." }),
        invite_to_complete: z.number().nullable().meta({ description: "From the first invitation to completing." }),
      })
      .meta({ description: "Median times in hours (the lower median), to the hour under two days and to the day beyond (the middle of its hour or day); null with no such signup." }),
    days: z
      .array(z.strictObject({ day: z.string().meta({ format: "date" }), ...stageShape, views: count("Views of the join page that day.") }))
      .meta({ description: "Per UTC day with any view or join, oldest first: the views that day, and the stages reached by the signups that joined that day." }),
    cohorts: z
      .array(z.strictObject({ week: z.string().meta({ format: "date", description: "The Monday (UTC) the week of joining starts on." }), ...stageShape, rates: ratesSchema }))
      .meta({ description: "Per week of joining, oldest first: of those who joined that week, how many reached each stage." }),
    sources: z
      .array(z.strictObject({ source: z.string().nullable().meta({ description: "`utm_source`, else the referring site (`referrer`); null: neither (a direct visit, an import)." }), ...stageShape, rates: ratesSchema }))
      .meta({ description: "Per source, most joins first." }),
  })
  .meta({ description: "A waitlist's funnel over the signups that joined in the range (a stage counts on its signup's day of joining)." });
