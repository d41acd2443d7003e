-- Ranking rules (lib/domain/ranking): how counted referrals move a signup up the line. No row: first
-- come, first served. `rule` is `referrals` (move up `step` places per counted referral) or `points`
-- (a counted referral is worth `step` points, a point one hour of waiting); `cap`: the most referrals
-- that move a signup (null: no cap).
CREATE TABLE `ranking_rules` (
	`waitlist_id` text PRIMARY KEY NOT NULL,
	`rule` text NOT NULL,
	`step` integer NOT NULL,
	`cap` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`waitlist_id`) REFERENCES `waitlists`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "ranking_rules_rule_known" CHECK("ranking_rules"."rule" = 'referrals' or "ranking_rules"."rule" = 'points'),
	CONSTRAINT "ranking_rules_step_positive" CHECK("ranking_rules"."step" > 0),
	CONSTRAINT "ranking_rules_cap_positive" CHECK("ranking_rules"."cap" is null or "ranking_rules"."cap" > 0)
);
--> statement-breakpoint
-- A signup's place key once referrals moved it: it stands in line at (line_at, line_pos) instead of
-- (created_at, id). Null on every other row, so existing rows are not rewritten and a join writes
-- nothing more. line_pos is REAL: a signup moved between two neighbours takes the midpoint.
ALTER TABLE `signups` ADD `line_at` integer;
--> statement-breakpoint
ALTER TABLE `signups` ADD `line_pos` real;
--> statement-breakpoint
-- The moved signups that wait, in line order (their places, "the next N in line", sort=position)
-- and in creation order (what they left behind when a place is counted).
CREATE INDEX `signups_moved_line_idx` ON `signups` (`waitlist_id`,`line_at`,`line_pos`) WHERE "signups"."line_at" is not null and "signups"."status" = 'waiting';
--> statement-breakpoint
CREATE INDEX `signups_moved_created_idx` ON `signups` (`waitlist_id`,`created_at`) WHERE "signups"."line_at" is not null and "signups"."status" = 'waiting';
--> statement-breakpoint
-- The waiting moved signups per UTC day of their place key (`by_line`) and of their creation
-- (`by_created`), kept exact by the triggers below: a place counts whole days from here.
CREATE TABLE `moved_signup_counts` (
	`waitlist_id` text NOT NULL,
	`day` integer NOT NULL,
	`by_line` integer DEFAULT 0 NOT NULL,
	`by_created` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`waitlist_id`, `day`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TRIGGER `moved_signup_counts_leave` AFTER UPDATE OF `line_at`, `line_pos`, `status` ON `signups`
WHEN OLD.`line_at` IS NOT NULL AND OLD.`status` = 'waiting'
BEGIN
	UPDATE `moved_signup_counts` SET `by_line` = `by_line` - 1 WHERE `waitlist_id` = OLD.`waitlist_id` AND `day` = OLD.`line_at` / 86400000;
	UPDATE `moved_signup_counts` SET `by_created` = `by_created` - 1 WHERE `waitlist_id` = OLD.`waitlist_id` AND `day` = OLD.`created_at` / 86400000;
END;
--> statement-breakpoint
CREATE TRIGGER `moved_signup_counts_enter` AFTER UPDATE OF `line_at`, `line_pos`, `status` ON `signups`
WHEN NEW.`line_at` IS NOT NULL AND NEW.`status` = 'waiting'
BEGIN
	INSERT INTO `moved_signup_counts` (`waitlist_id`, `day`, `by_line`) VALUES (NEW.`waitlist_id`, NEW.`line_at` / 86400000, 1)
	ON CONFLICT DO UPDATE SET `by_line` = `by_line` + 1;
	INSERT INTO `moved_signup_counts` (`waitlist_id`, `day`, `by_created`) VALUES (NEW.`waitlist_id`, NEW.`created_at` / 86400000, 1)
	ON CONFLICT DO UPDATE SET `by_created` = `by_created` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `moved_signup_counts_delete` AFTER DELETE ON `signups`
WHEN OLD.`line_at` IS NOT NULL AND OLD.`status` = 'waiting'
BEGIN
	UPDATE `moved_signup_counts` SET `by_line` = `by_line` - 1 WHERE `waitlist_id` = OLD.`waitlist_id` AND `day` = OLD.`line_at` / 86400000;
	UPDATE `moved_signup_counts` SET `by_created` = `by_created` - 1 WHERE `waitlist_id` = OLD.`waitlist_id` AND `day` = OLD.`created_at` / 86400000;
END;
