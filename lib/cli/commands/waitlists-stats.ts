import type { Command } from "commander";
import { parseApiValues } from "@/lib/domain/list-params";
import { statsParamsSchema, statsRangeOf } from "@/lib/domain/funnel/schemas";
import { funnelStats, type FunnelRates } from "@/lib/domain/funnel/stats";
import { getWaitlistOrThrow } from "@/lib/domain/waitlists/queries";
import { emit, table, type JsonOption } from "../output";

const percent = (rate: number | null) => (rate === null ? "-" : `${(rate * 100).toFixed(1)}%`);
const hours = (value: number | null) => (value === null ? "-" : `${value} h`);
const rateCells = (rates: FunnelRates) => [percent(rates.join_to_invited), percent(rates.join_to_completed)];

/** `waitlists stats <id>`: the funnel of GET /v1/waitlist/{id}/stats, from the same function. */
export function registerWaitlistStatsCommand(waitlists: Command): void {
  waitlists
    .command("stats")
    .description("Show a waitlist's funnel for the people who joined in a range of days: views, joins, verified, invited, completed, expired, conversion, median times, per week and per source (as GET /v1/waitlist/{id}/stats).")
    .argument("<id>", "id of the waitlist")
    .option("--from <date>", "the first day of joining counted (YYYY-MM-DD, UTC)")
    .option("--to <date>", "the last day of joining counted (YYYY-MM-DD, UTC, inclusive)")
    .option("--json", "print one JSON object to stdout (the API's answer)")
    .action(async (id: string, options: { from?: string; to?: string } & JsonOption) => {
      const values = Object.fromEntries(Object.entries({ from: options.from, to: options.to }).filter((entry): entry is [string, string] => entry[1] !== undefined));
      const range = statsRangeOf(parseApiValues(values, statsParamsSchema));
      const waitlist = await getWaitlistOrThrow(id);
      const stats = await funnelStats(waitlist.id, range);
      emit(options, stats, () => {
        const { totals, rates } = stats;
        const stageHeads = ["joined", "verified", "invited", "completed", "expired", "invited %", "completed %"];
        const counts = (row: typeof totals) => [row.joined, row.verified, row.invited, row.completed, row.expired].map(String);
        return [
          `${waitlist.name} (${waitlist.id}), joined ${stats.from ?? "from the start"} to ${stats.to ?? "now"}`,
          table(
            ["stage", "count", "conversion"],
            [
              ["views", String(totals.views), ""],
              ["joined", String(totals.joined), `${percent(rates.view_to_join)} of views`],
              ["verified", String(totals.verified), `${percent(rates.join_to_verified)} of joined`],
              ["invited", String(totals.invited), `${percent(rates.join_to_invited)} of joined`],
              ["completed", String(totals.completed), `${percent(rates.invited_to_completed)} of invited`],
              ["expired", String(totals.expired), `${percent(rates.invited_to_expired)} of invited`],
            ],
          ),
          `referral factor ${stats.referral_factor ?? "-"}; median join to invite ${hours(stats.median_hours.join_to_invite)}, invite to complete ${hours(stats.median_hours.invite_to_complete)}`,
          "",
          table(["week of", ...stageHeads], stats.cohorts.map((cohort) => [cohort.week, ...counts({ ...cohort, views: 0 }), ...rateCells(cohort.rates)])),
          "",
          table(["source", ...stageHeads], stats.sources.map((source) => [source.source ?? "(direct)", ...counts({ ...source, views: 0 }), ...rateCells(source.rates)])),
        ].join("\n");
      });
    });
}
