import type { Command } from "commander";
import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { erasedDataStillOnDisk, erasedFromDisk, ERASURE_DISK_WAIT_MS } from "@/lib/domain/signups/erase";
import { createWaitlistAs, deleteWaitlistAs, DuplicateWaitlistNameError, updateWaitlistAs } from "@/lib/domain/waitlists/manage";
import { getWaitlistOrThrow, listWaitlists, signupTotals } from "@/lib/domain/waitlists/queries";
import { joinSettingsOf, updateJoinSettings } from "@/lib/domain/joining/settings";
import { previewRankingRule, setRankingRule } from "@/lib/domain/ranking/apply";
import { describeRankingRule, formatRankingRule, RANKING_RULE_FORMAT, rankingRuleSchema } from "@/lib/domain/ranking/rule";
import { rankingRuleOf } from "@/lib/domain/ranking/rules";
import { describeMilestone, formatMilestone, MAX_MILESTONES, MILESTONE_FORMAT, milestonesSchema } from "@/lib/domain/milestones/milestone";
import { milestonesOf, setMilestones } from "@/lib/domain/milestones/store";
import { toWaitlistResponse } from "@/lib/domain/waitlists/response";
import { createWaitlistSchema, deleteWaitlistSchema, updateWaitlistSchema } from "@/lib/domain/waitlists/schemas";
import { setJoinLogo } from "@/lib/domain/branding/logo";
import { logoChangeOf, type LogoOptions } from "../logo-option";
import { collect, describeJoinSettings, JOIN_FIELD_FORMAT, joinChangeOf, type JoinOptions } from "../join-options";
import { emit, parseOptions, table, type JsonOption } from "../output";
import { registerWaitlistStatsCommand } from "./waitlists-stats";
import { describeInviteLinks, inviteChangeOf, type InviteOptions } from "../invite-options";
import { CLI_ACTOR } from "@/lib/domain/audit/log";
import { updateInvitationEmail } from "@/lib/domain/emails/invitation";
import { registerSchedulerCommands } from "./waitlists-scheduler";
import { registerScheduleCommands } from "./waitlists-schedules";

const rankingOptionSchema = z.object({ ranking: rankingRuleSchema });

const optionOf = (key: string) => (key === "allowDuplicateName" ? "--allow-duplicate-name" : `--${key}`);

/** The CLI's wording of a duplicate name: how to go ahead anyway. */
async function withDuplicateHint<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof DuplicateWaitlistNameError) throw new AppError("invalid_parameter", `${error.message}: pass --allow-duplicate-name to use the name again`, "--name");
    throw error;
  }
}

export function registerWaitlistCommands(program: Command): void {
  const waitlists = program.command("waitlists").description("Create, list, update and delete waitlists.");

  waitlists
    .command("create")
    .description("Create a waitlist. A name already in use (in any case) is refused unless --allow-duplicate-name.")
    .requiredOption("--name <name>", "name of the waitlist")
    .requiredOption("--website <url>", "its website, an absolute http or https URL")
    .option("--allow-duplicate-name", "create it even when another waitlist has this name")
    .option("--json", "print one JSON object to stdout")
    .action(async (options: { name: string; website: string; allowDuplicateName?: boolean } & JsonOption) => {
      const input = { name: options.name, website: options.website, allowDuplicateName: Boolean(options.allowDuplicateName) };
      parseOptions(createWaitlistSchema, input, optionOf);
      const waitlist = toWaitlistResponse(await withDuplicateHint(() => createWaitlistAs("cli", input)));
      emit(options, waitlist, () => `Created waitlist ${waitlist.id} (${waitlist.name}, ${waitlist.website}).`);
    });

  waitlists
    .command("list")
    .description("List every waitlist with its number of signups, oldest first.")
    .option("--json", "print one JSON object to stdout")
    .action(async (options: JsonOption) => {
      const totals = await signupTotals();
      const items = (await listWaitlists()).items.map((row) => ({
        ...toWaitlistResponse(row),
        created_at: row.createdAt.toISOString(),
        signups: totals.get(row.id) ?? 0,
      }));
      emit(options, { waitlists: items }, () =>
        items.length === 0
          ? "No waitlists yet. Create one with: waitlists create --name <name> --website <url>"
          : table(
              ["ID", "NAME", "WEBSITE", "SIGNUPS", "CREATED"],
              items.map((item) => [item.id, item.name, item.website, String(item.signups), item.created_at]),
            ),
      );
    });

  waitlists
    .command("update")
    .description(
      "Rename a waitlist, change its website, or change how people join it (the join page /join/<id> and POST /v1/waitlist/<id>/signup). A name already in use (in any case) is refused unless --allow-duplicate-name.",
    )
    .argument("<id>", "id of the waitlist")
    .option("--name <name>", "its new name")
    .option("--website <url>", "its new website, an absolute http or https URL")
    .option("--allow-duplicate-name", "rename it even when another waitlist has this name")
    .option("--joining <open|closed>", "whether people may join it (closed until an admin opens it)")
    .option("--verification <on|off>", "send each new signup a confirmation link (when email is configured)")
    .option("--join-field <field>", `a field of the join form, repeatable, replacing them all: ${JOIN_FIELD_FORMAT}`, collect)
    .option("--clear-join-fields", "a join form with no fields but the address")
    .option("--success-message <text>", "what the join page says after joining")
    .option("--embed-origin <origin>", "an origin whose pages may embed the join page (https://example.com), repeatable, replacing them all", collect)
    .option("--clear-embed-origins", "only this site may embed the join page")
    .option("--challenge <on|off>", "the proof-of-work challenge on the join page (on by default)")
    .option("--headline <text>", "the join page's headline, instead of \"Join the … waitlist\" (\"\" for the default)")
    .option("--description <text>", "the join page's description: plain text, **bold**, *italic*, [links](https://…), \\n\\n between paragraphs")
    .option("--accent-color <#rrggbb>", "the join button's colour, readable behind white text (4.5:1), \"\" for the default")
    .option("--logo <file>", "the join page's logo: a PNG, JPEG or WebP file of at most 200 KB")
    .option("--clear-logo", "no logo on the join page")
    .option("--leaderboard <on|off>", "the public leaderboard of top referrers, /join/<id>/leaderboard (off by default)")
    .option("--ranking <rule>", `how counted referrals move people up the line: ${RANKING_RULE_FORMAT}`)
    .option("--disposable <refuse|flag|allow>", "what joining does with a disposable address: refuse it, flag it for review (the default), or allow it")
    .option("--invite-url <url>", "the product's sign-up page: the invitation email's {{invite.url}} is it with ?invite=<token> (\"\" for none)")
    .option("--invite-expiry <days>", "how many days an invite link stays good after the invitation (14 by default)")
    .option("--on-invite-expiry <requeue|reject>", "what an invitation not redeemed in time becomes: waiting again at the front of the line (requeue, the default) or rejected")
    .option("--remind-days <n|off>", "send the reminder email (emails set --reminder-subject/--reminder-body-file) n days before an invitation expires; off for none (the default)")
    .option("--json", "print one JSON object to stdout")
    .action(async (id: string, options: { name?: string; website?: string; allowDuplicateName?: boolean; ranking?: string } & JoinOptions & LogoOptions & InviteOptions & JsonOption) => {
      // Parsed before any write, so that a bad rule changes nothing.
      const ranking = options.ranking === undefined ? undefined : parseOptions(rankingOptionSchema, { ranking: options.ranking }).ranking;
      const joinChange = joinChangeOf(options);
      const logo = logoChangeOf(options);
      const inviteChange = inviteChangeOf(options);
      const renames = options.name !== undefined || options.website !== undefined;
      const input = { name: options.name, website: options.website, allowDuplicateName: Boolean(options.allowDuplicateName) };
      if (renames || (Object.keys(joinChange).length === 0 && logo === undefined && !ranking && Object.keys(inviteChange).length === 0)) parseOptions(updateWaitlistSchema, input, optionOf);
      const updated = renames ? await withDuplicateHint(() => updateWaitlistAs("cli", id, input)) : await getWaitlistOrThrow(id);
      const waitlist = toWaitlistResponse(updated);
      const joining = Object.keys(joinChange).length === 0 ? undefined : await updateJoinSettings(waitlist.id, joinChange, "cli");
      // After the settings (validated as they are written); the logo was checked when read.
      if (logo !== undefined) await setJoinLogo(waitlist.id, logo, "cli");
      const rule = ranking && await setRankingRule(waitlist.id, ranking, "cli");
      const invites = Object.keys(inviteChange).length === 0 ? undefined : await updateInvitationEmail(CLI_ACTOR, waitlist.id, inviteChange);
      const inviteJson = invites && { invite_url: invites.inviteUrl, invite_expiry_days: invites.inviteExpiryDays, on_invite_expiry: invites.onInviteExpiry, reminder_days_before: invites.reminderDaysBefore };
      emit(options, { ...waitlist, ...(joining && { joining }), ...(rule && { ranking: formatRankingRule(rule) }), ...inviteJson }, () =>
        [
          `Updated waitlist ${waitlist.id} (${waitlist.name}, ${waitlist.website}).${logo === undefined ? "" : logo === null ? " Logo removed." : " Logo set."}`,
          joining && describeJoinSettings(joining),
          rule && `Ranking: ${describeRankingRule(rule)}.`,
          invites && describeInviteLinks(invites),
        ]
          .filter(Boolean)
          .join("\n"),
      );
    });

  waitlists
    .command("joining")
    .description("Show how people join a waitlist: open or closed, the form's fields, verification, the embed origins.")
    .argument("<id>", "id of the waitlist")
    .option("--json", "print one JSON object to stdout")
    .action(async (id: string, options: JsonOption) => {
      const waitlist = await getWaitlistOrThrow(id);
      const joining = await joinSettingsOf(waitlist.id);
      emit(options, { id: waitlist.id, joining }, () => `${waitlist.name} (${waitlist.id})\n${describeJoinSettings(joining)}`);
    });

  waitlists
    .command("ranking")
    .description("Show how counted referrals move people up a waitlist's line, or preview a rule: where its top referrers and the first in line would stand (nothing changes; set it with `waitlists update <id> --ranking <rule>`).")
    .argument("<id>", "id of the waitlist")
    .option("--preview <rule>", `the rule to preview: ${RANKING_RULE_FORMAT}`)
    .option("--json", "print one JSON object to stdout")
    .action(async (id: string, options: { preview?: string } & JsonOption) => {
      const waitlist = await getWaitlistOrThrow(id);
      const rule = await rankingRuleOf(waitlist.id);
      if (options.preview === undefined) {
        emit(options, { id: waitlist.id, ranking: formatRankingRule(rule) }, () => `${waitlist.name} (${waitlist.id})\nRanking: ${describeRankingRule(rule)} (${formatRankingRule(rule)}).`);
        return;
      }
      const preview = parseOptions(z.object({ preview: rankingRuleSchema }), { preview: options.preview }).preview;
      const moves = await previewRankingRule(waitlist.id, preview);
      emit(options, { id: waitlist.id, ranking: formatRankingRule(rule), preview: formatRankingRule(preview), moves }, () =>
        [`Under "${describeRankingRule(preview)}" (now: ${describeRankingRule(rule)}):`, ...moves.map((move) => `  ${move.email}: from ${move.before} to ${move.after}`)].join("\n"),
      );
    });

  waitlists
    .command("milestones")
    .description(
      `Show a waitlist's milestones, or replace them all: steps of counted referrals that show on the person's page, email them and emit signup.milestone_reached (audited). A milestone added is reached at once by everyone already past it; one removed forgets who reached it.`,
    )
    .argument("<id>", "id of the waitlist")
    .option("--set <milestone>", `a milestone, repeatable (at most ${MAX_MILESTONES}), replacing them all: ${MILESTONE_FORMAT}`, collect)
    .option("--clear", "no milestones")
    .option("--json", "print one JSON object to stdout")
    .action(async (id: string, options: { set?: string[]; clear?: boolean } & JsonOption) => {
      const waitlist = await getWaitlistOrThrow(id);
      if (options.set && options.clear) throw new AppError("invalid_parameter", "--set and --clear contradict each other: pass one", "--clear");
      // Checked here first, so that a bad line is said with its option's name.
      if (options.set) parseOptions(z.object({ set: milestonesSchema }), { set: options.set });
      const lines = options.clear ? [] : options.set;
      const result = lines ? await setMilestones(waitlist.id, lines, "cli") : { milestones: await milestonesOf(waitlist.id), reachedNow: 0 };
      emit(options, { id: waitlist.id, milestones: result.milestones, ...(lines && { reached_now: result.reachedNow }) }, () =>
        [
          `${waitlist.name} (${waitlist.id})`,
          result.milestones.length === 0 ? "No milestones." : `Milestones:\n${result.milestones.map((milestone) => `  ${describeMilestone(milestone)}  (${formatMilestone(milestone)})`).join("\n")}`,
          lines && result.reachedNow > 0 ? `${result.reachedNow} reached a new milestone at once.` : undefined,
        ]
          .filter(Boolean)
          .join("\n"),
      );
    });

  registerSchedulerCommands(waitlists);
  registerScheduleCommands(waitlists);

  waitlists
    .command("delete")
    .description("Delete a waitlist and every signup in it. Cannot be undone.")
    .argument("<id>", "id of the waitlist")
    .requiredOption("--confirm <name>", "the waitlist's name, exactly, to confirm")
    .option("--json", "print one JSON object to stdout")
    .action(async (id: string, options: { confirm: string } & JsonOption) => {
      const input = parseOptions(deleteWaitlistSchema, { confirm: options.confirm });
      const deleted = await deleteWaitlistAs("cli", id, input);
      const offDisk = await erasedFromDisk(ERASURE_DISK_WAIT_MS.cli);
      emit(options, { id: deleted.id, deleted: true, signups: deleted.signups, off_disk: offDisk }, () => {
        const done = `Deleted waitlist ${deleted.id} (${deleted.name}) and its ${deleted.signups} signups.`;
        return offDisk ? done : `${done} ${erasedDataStillOnDisk()}`;
      });
    });
  registerWaitlistStatsCommand(waitlists);
}
