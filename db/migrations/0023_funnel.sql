-- The funnel (lib/domain/funnel): where each signup came from (utm_* and the referring site, given at
-- join), when it was first invited, completed, and first had an invitation expire; and two counting
-- tables kept on write, so that a list of ten million answers its funnel from a few thousand rows.
-- Added columns with no default cost no rewrite of the table.
ALTER TABLE `signups` ADD `utm_source` text;
--> statement-breakpoint
ALTER TABLE `signups` ADD `utm_medium` text;
--> statement-breakpoint
ALTER TABLE `signups` ADD `utm_campaign` text;
--> statement-breakpoint
ALTER TABLE `signups` ADD `referrer` text;
--> statement-breakpoint
ALTER TABLE `signups` ADD `invited_at` integer;
--> statement-breakpoint
ALTER TABLE `signups` ADD `completed_at` integer;
--> statement-breakpoint
ALTER TABLE `signups` ADD `expired_at` integer;
--> statement-breakpoint
-- The source filters walk these when they are set: only signups that have the value are in them,
-- so an import without UTM values costs nothing here.
CREATE INDEX `signups_utm_source_idx` ON `signups` (`waitlist_id`, `utm_source`, `created_at`) WHERE `utm_source` IS NOT NULL;
--> statement-breakpoint
CREATE INDEX `signups_utm_medium_idx` ON `signups` (`waitlist_id`, `utm_medium`, `created_at`) WHERE `utm_medium` IS NOT NULL;
--> statement-breakpoint
CREATE INDEX `signups_utm_campaign_idx` ON `signups` (`waitlist_id`, `utm_campaign`, `created_at`) WHERE `utm_campaign` IS NOT NULL;
--> statement-breakpoint
CREATE INDEX `signups_referrer_idx` ON `signups` (`waitlist_id`, `referrer`, `created_at`) WHERE `referrer` IS NOT NULL;
--> statement-breakpoint
-- Per waitlist and UTC day of joining (the cohort's day), how many signups reached each stage: joined,
-- referred, verified, invited, completed, expired; and the same per source (utm_source, else the
-- referring site, else ''), keyed source first so that a breakdown is summed in key order. Kept
-- exact by the triggers below (and, for an import, by the bulk writer). Two tables: the days' few
-- thousand rows answer the totals, the chart and the cohorts without reading the sources' many.
CREATE TABLE `funnel_counts` (
	`waitlist_id` text NOT NULL,
	`day` integer NOT NULL,
	`stage` text NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`waitlist_id`, `day`, `stage`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `funnel_source_counts` (
	`waitlist_id` text NOT NULL,
	`source` text NOT NULL,
	`stage` text NOT NULL,
	`day` integer NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`waitlist_id`, `source`, `stage`, `day`)
) WITHOUT ROWID;
--> statement-breakpoint
-- Per waitlist and day of joining, how long signups took from joining to their first invitation
-- (`invite`) and from it to completing (`redeem`), in buckets: whole hours under two days, whole
-- days (in hours) beyond. Keyed in the order a median sums them, so no sort: with 730 days × 120
-- buckets the whole funnel took 55 ms of CPU instead of 125 keyed by day first (a loaded machine).
CREATE TABLE `funnel_durations` (
	`waitlist_id` text NOT NULL,
	`kind` text NOT NULL,
	`bucket` integer NOT NULL,
	`day` integer NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`waitlist_id`, `kind`, `bucket`, `day`)
) WITHOUT ROWID;
--> statement-breakpoint
-- Views of a waitlist's join page per UTC day, counted by the server that renders it (no cookie).
CREATE TABLE `join_page_views` (
	`waitlist_id` text NOT NULL,
	`day` integer NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`waitlist_id`, `day`)
) WITHOUT ROWID;
--> statement-breakpoint
-- What the new columns would have held, read from the history: the first invitation and completion
-- events, and the first expiry; a status without its event (an import) dates from its last change.
UPDATE `signups` SET `invited_at` = `first`.`at` FROM (SELECT `signup_id`, min(`created_at`) AS `at` FROM `events` WHERE `type` = 'signup.invited' AND `signup_id` IS NOT NULL GROUP BY 1) AS `first` WHERE `signups`.`id` = `first`.`signup_id`;
--> statement-breakpoint
UPDATE `signups` SET `completed_at` = `first`.`at` FROM (SELECT `signup_id`, min(`created_at`) AS `at` FROM `events` WHERE `type` = 'signup.completed' AND `signup_id` IS NOT NULL GROUP BY 1) AS `first` WHERE `signups`.`id` = `first`.`signup_id`;
--> statement-breakpoint
UPDATE `signups` SET `expired_at` = `first`.`at` FROM (SELECT `signup_id`, min(`created_at`) AS `at` FROM `events` WHERE `type` = 'signup.invitation_expired' AND `signup_id` IS NOT NULL GROUP BY 1) AS `first` WHERE `signups`.`id` = `first`.`signup_id`;
--> statement-breakpoint
UPDATE `signups` INDEXED BY `signups_changed_status_idx` SET `invited_at` = `status_changed_at` WHERE `status` <> 'waiting' AND `status` = 'invited' AND `invited_at` IS NULL;
--> statement-breakpoint
UPDATE `signups` INDEXED BY `signups_changed_status_idx` SET `completed_at` = `status_changed_at` WHERE `status` <> 'waiting' AND `status` = 'completed' AND `completed_at` IS NULL;
--> statement-breakpoint
-- A signup's rows in the two tables, one view each: the backfill below and the triggers (through
-- `signup_id`, for NEW or OLD) read the same rules.
CREATE VIEW `signup_funnel_stages` AS
SELECT `id` AS `signup_id`, `waitlist_id`, `created_at` / 86400000 AS `day`, coalesce(`utm_source`, `referrer`, '') AS `source`, `stages`.`stage`
FROM `signups` JOIN (SELECT 'joined' AS `stage` UNION ALL SELECT 'referred' UNION ALL SELECT 'verified' UNION ALL SELECT 'invited' UNION ALL SELECT 'completed' UNION ALL SELECT 'expired') AS `stages`
ON CASE `stages`.`stage` WHEN 'joined' THEN 1 WHEN 'referred' THEN `referral` WHEN 'verified' THEN `verified` WHEN 'invited' THEN `invited_at` IS NOT NULL WHEN 'completed' THEN `completed_at` IS NOT NULL ELSE `expired_at` IS NOT NULL END;
--> statement-breakpoint
CREATE VIEW `signup_funnel_durations` AS
SELECT `id` AS `signup_id`, `waitlist_id`, `created_at` / 86400000 AS `day`, 'invite' AS `kind`,
	CASE WHEN max(`invited_at` - `created_at`, 0) < 172800000 THEN max(`invited_at` - `created_at`, 0) / 3600000 ELSE max(`invited_at` - `created_at`, 0) / 86400000 * 24 END AS `bucket`
FROM `signups` WHERE `invited_at` IS NOT NULL
UNION ALL
SELECT `id`, `waitlist_id`, `created_at` / 86400000, 'redeem',
	CASE WHEN max(`completed_at` - `invited_at`, 0) < 172800000 THEN max(`completed_at` - `invited_at`, 0) / 3600000 ELSE max(`completed_at` - `invited_at`, 0) / 86400000 * 24 END
FROM `signups` WHERE `invited_at` IS NOT NULL AND `completed_at` IS NOT NULL;
--> statement-breakpoint
-- What the tables hold, counted once from the signups through the views.
INSERT INTO `funnel_counts` (`waitlist_id`, `day`, `stage`, `count`)
SELECT `waitlist_id`, `day`, `stage`, count(*) FROM `signup_funnel_stages` GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO `funnel_source_counts` (`waitlist_id`, `source`, `stage`, `day`, `count`)
SELECT `waitlist_id`, `source`, `stage`, `day`, count(*) FROM `signup_funnel_stages` GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
INSERT INTO `funnel_durations` (`waitlist_id`, `day`, `kind`, `bucket`, `count`)
SELECT `waitlist_id`, `day`, `kind`, `bucket`, count(*) FROM `signup_funnel_durations` GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
CREATE TRIGGER `funnel_after_insert` AFTER INSERT ON `signups` BEGIN
	INSERT INTO `funnel_counts` (`waitlist_id`, `day`, `stage`, `count`)
	SELECT `waitlist_id`, `day`, `stage`, 1 FROM `signup_funnel_stages` WHERE `signup_id` = NEW.`id`
	ON CONFLICT DO UPDATE SET `count` = `count` + 1;
	INSERT INTO `funnel_source_counts` (`waitlist_id`, `source`, `stage`, `day`, `count`)
	SELECT `waitlist_id`, `source`, `stage`, `day`, 1 FROM `signup_funnel_stages` WHERE `signup_id` = NEW.`id`
	ON CONFLICT DO UPDATE SET `count` = `count` + 1;
	INSERT INTO `funnel_durations` (`waitlist_id`, `day`, `kind`, `bucket`, `count`)
	SELECT `waitlist_id`, `day`, `kind`, `bucket`, 1 FROM `signup_funnel_durations` WHERE `signup_id` = NEW.`id` AND NEW.`invited_at` IS NOT NULL
	ON CONFLICT DO UPDATE SET `count` = `count` + 1;
END;
--> statement-breakpoint
-- A change of what keys a signup's rows (its list, day, flags, source): before it the old rows are taken
-- away, after it the new ones added (rows go at zero). Rare (a verification), so done whole.
CREATE TRIGGER `funnel_before_update` BEFORE UPDATE OF `waitlist_id`, `created_at`, `verified`, `referral`, `utm_source`, `referrer`, `invited_at`, `completed_at`, `expired_at` ON `signups` WHEN NOT (NEW.`waitlist_id` IS OLD.`waitlist_id` AND NEW.`created_at` IS OLD.`created_at` AND NEW.`verified` IS OLD.`verified` AND NEW.`referral` IS OLD.`referral` AND coalesce(NEW.`utm_source`, NEW.`referrer`, '') IS coalesce(OLD.`utm_source`, OLD.`referrer`, '')) BEGIN
	INSERT INTO `funnel_counts` (`waitlist_id`, `day`, `stage`, `count`)
	SELECT `waitlist_id`, `day`, `stage`, -1 FROM `signup_funnel_stages` WHERE `signup_id` = OLD.`id`
	ON CONFLICT DO UPDATE SET `count` = `count` - 1;
	INSERT INTO `funnel_source_counts` (`waitlist_id`, `source`, `stage`, `day`, `count`)
	SELECT `waitlist_id`, `source`, `stage`, `day`, -1 FROM `signup_funnel_stages` WHERE `signup_id` = OLD.`id`
	ON CONFLICT DO UPDATE SET `count` = `count` - 1;
	DELETE FROM `funnel_counts` WHERE `waitlist_id` = OLD.`waitlist_id` AND `day` = OLD.`created_at` / 86400000 AND `count` <= 0;
	DELETE FROM `funnel_source_counts` WHERE `waitlist_id` = OLD.`waitlist_id` AND `source` = coalesce(OLD.`utm_source`, OLD.`referrer`, '') AND `day` = OLD.`created_at` / 86400000 AND `count` <= 0;
	INSERT INTO `funnel_durations` (`waitlist_id`, `day`, `kind`, `bucket`, `count`)
	SELECT `waitlist_id`, `day`, `kind`, `bucket`, -1 FROM `signup_funnel_durations` WHERE `signup_id` = OLD.`id` AND OLD.`invited_at` IS NOT NULL
	ON CONFLICT DO UPDATE SET `count` = `count` - 1;
	DELETE FROM `funnel_durations` WHERE (`waitlist_id`, `kind`, `bucket`, `day`) IN (SELECT `waitlist_id`, `kind`, `bucket`, `day` FROM `signup_funnel_durations` WHERE `signup_id` = OLD.`id`) AND `count` <= 0;
END;
--> statement-breakpoint
CREATE TRIGGER `funnel_after_update` AFTER UPDATE OF `waitlist_id`, `created_at`, `verified`, `referral`, `utm_source`, `referrer`, `invited_at`, `completed_at`, `expired_at` ON `signups` WHEN NOT (NEW.`waitlist_id` IS OLD.`waitlist_id` AND NEW.`created_at` IS OLD.`created_at` AND NEW.`verified` IS OLD.`verified` AND NEW.`referral` IS OLD.`referral` AND coalesce(NEW.`utm_source`, NEW.`referrer`, '') IS coalesce(OLD.`utm_source`, OLD.`referrer`, '')) BEGIN
	INSERT INTO `funnel_counts` (`waitlist_id`, `day`, `stage`, `count`)
	SELECT `waitlist_id`, `day`, `stage`, 1 FROM `signup_funnel_stages` WHERE `signup_id` = NEW.`id`
	ON CONFLICT DO UPDATE SET `count` = `count` + 1;
	INSERT INTO `funnel_source_counts` (`waitlist_id`, `source`, `stage`, `day`, `count`)
	SELECT `waitlist_id`, `source`, `stage`, `day`, 1 FROM `signup_funnel_stages` WHERE `signup_id` = NEW.`id`
	ON CONFLICT DO UPDATE SET `count` = `count` + 1;
	INSERT INTO `funnel_durations` (`waitlist_id`, `day`, `kind`, `bucket`, `count`)
	SELECT `waitlist_id`, `day`, `kind`, `bucket`, 1 FROM `signup_funnel_durations` WHERE `signup_id` = NEW.`id` AND NEW.`invited_at` IS NOT NULL
	ON CONFLICT DO UPDATE SET `count` = `count` + 1;
END;
--> statement-breakpoint
-- The common change: a first invitation, a completion, an expiry (the triggers below set their times).
-- Only those stages move, by their difference, and the durations of the old and new times: a few rows,
-- so that inviting 10,000 costs little more than their status change.
CREATE TRIGGER `funnel_after_times` AFTER UPDATE OF `invited_at`, `completed_at`, `expired_at` ON `signups` WHEN NEW.`waitlist_id` IS OLD.`waitlist_id` AND NEW.`created_at` IS OLD.`created_at` AND NEW.`verified` IS OLD.`verified` AND NEW.`referral` IS OLD.`referral` AND coalesce(NEW.`utm_source`, NEW.`referrer`, '') IS coalesce(OLD.`utm_source`, OLD.`referrer`, '') BEGIN
	INSERT INTO `funnel_counts` (`waitlist_id`, `day`, `stage`, `count`)
	SELECT NEW.`waitlist_id`, NEW.`created_at` / 86400000, `stage`, `delta` FROM (
		SELECT 'invited' AS `stage`, (NEW.`invited_at` IS NOT NULL) - (OLD.`invited_at` IS NOT NULL) AS `delta`
		UNION ALL SELECT 'completed', (NEW.`completed_at` IS NOT NULL) - (OLD.`completed_at` IS NOT NULL)
		UNION ALL SELECT 'expired', (NEW.`expired_at` IS NOT NULL) - (OLD.`expired_at` IS NOT NULL)
	) WHERE `delta` <> 0
	ON CONFLICT DO UPDATE SET `count` = `count` + excluded.`count`;
	INSERT INTO `funnel_source_counts` (`waitlist_id`, `source`, `stage`, `day`, `count`)
	SELECT NEW.`waitlist_id`, coalesce(NEW.`utm_source`, NEW.`referrer`, ''), `stage`, NEW.`created_at` / 86400000, `delta` FROM (
		SELECT 'invited' AS `stage`, (NEW.`invited_at` IS NOT NULL) - (OLD.`invited_at` IS NOT NULL) AS `delta`
		UNION ALL SELECT 'completed', (NEW.`completed_at` IS NOT NULL) - (OLD.`completed_at` IS NOT NULL)
		UNION ALL SELECT 'expired', (NEW.`expired_at` IS NOT NULL) - (OLD.`expired_at` IS NOT NULL)
	) WHERE `delta` <> 0
	ON CONFLICT DO UPDATE SET `count` = `count` + excluded.`count`;
	DELETE FROM `funnel_counts` WHERE `waitlist_id` = NEW.`waitlist_id` AND `day` = NEW.`created_at` / 86400000 AND `count` <= 0;
	DELETE FROM `funnel_source_counts` WHERE `waitlist_id` = NEW.`waitlist_id` AND `source` = coalesce(NEW.`utm_source`, NEW.`referrer`, '') AND `day` = NEW.`created_at` / 86400000 AND `count` <= 0;
	INSERT INTO `funnel_durations` (`waitlist_id`, `kind`, `bucket`, `day`, `count`)
	SELECT NEW.`waitlist_id`, `kind`, `bucket`, NEW.`created_at` / 86400000, sum(`delta`) FROM (
		SELECT 'invite' AS `kind`, CASE WHEN max(OLD.`invited_at` - OLD.`created_at`, 0) < 172800000 THEN max(OLD.`invited_at` - OLD.`created_at`, 0) / 3600000 ELSE max(OLD.`invited_at` - OLD.`created_at`, 0) / 86400000 * 24 END AS `bucket`, -1 AS `delta` WHERE OLD.`invited_at` IS NOT NULL
		UNION ALL SELECT 'redeem', CASE WHEN max(OLD.`completed_at` - OLD.`invited_at`, 0) < 172800000 THEN max(OLD.`completed_at` - OLD.`invited_at`, 0) / 3600000 ELSE max(OLD.`completed_at` - OLD.`invited_at`, 0) / 86400000 * 24 END, -1 WHERE OLD.`invited_at` IS NOT NULL AND OLD.`completed_at` IS NOT NULL
		UNION ALL SELECT 'invite', CASE WHEN max(NEW.`invited_at` - NEW.`created_at`, 0) < 172800000 THEN max(NEW.`invited_at` - NEW.`created_at`, 0) / 3600000 ELSE max(NEW.`invited_at` - NEW.`created_at`, 0) / 86400000 * 24 END, 1 WHERE NEW.`invited_at` IS NOT NULL
		UNION ALL SELECT 'redeem', CASE WHEN max(NEW.`completed_at` - NEW.`invited_at`, 0) < 172800000 THEN max(NEW.`completed_at` - NEW.`invited_at`, 0) / 3600000 ELSE max(NEW.`completed_at` - NEW.`invited_at`, 0) / 86400000 * 24 END, 1 WHERE NEW.`invited_at` IS NOT NULL AND NEW.`completed_at` IS NOT NULL
	) WHERE true GROUP BY `kind`, `bucket` HAVING sum(`delta`) <> 0
	ON CONFLICT DO UPDATE SET `count` = `count` + excluded.`count`;
	DELETE FROM `funnel_durations` WHERE `waitlist_id` = NEW.`waitlist_id` AND `day` = NEW.`created_at` / 86400000 AND `count` <= 0 AND (
		(`kind` = 'invite' AND `bucket` = CASE WHEN max(OLD.`invited_at` - OLD.`created_at`, 0) < 172800000 THEN max(OLD.`invited_at` - OLD.`created_at`, 0) / 3600000 ELSE max(OLD.`invited_at` - OLD.`created_at`, 0) / 86400000 * 24 END)
		OR (`kind` = 'redeem' AND `bucket` = CASE WHEN max(OLD.`completed_at` - OLD.`invited_at`, 0) < 172800000 THEN max(OLD.`completed_at` - OLD.`invited_at`, 0) / 3600000 ELSE max(OLD.`completed_at` - OLD.`invited_at`, 0) / 86400000 * 24 END));
END;
--> statement-breakpoint
CREATE TRIGGER `funnel_before_delete` BEFORE DELETE ON `signups` BEGIN
	INSERT INTO `funnel_counts` (`waitlist_id`, `day`, `stage`, `count`)
	SELECT `waitlist_id`, `day`, `stage`, -1 FROM `signup_funnel_stages` WHERE `signup_id` = OLD.`id`
	ON CONFLICT DO UPDATE SET `count` = `count` - 1;
	INSERT INTO `funnel_source_counts` (`waitlist_id`, `source`, `stage`, `day`, `count`)
	SELECT `waitlist_id`, `source`, `stage`, `day`, -1 FROM `signup_funnel_stages` WHERE `signup_id` = OLD.`id`
	ON CONFLICT DO UPDATE SET `count` = `count` - 1;
	DELETE FROM `funnel_counts` WHERE `waitlist_id` = OLD.`waitlist_id` AND `day` = OLD.`created_at` / 86400000 AND `count` <= 0;
	DELETE FROM `funnel_source_counts` WHERE `waitlist_id` = OLD.`waitlist_id` AND `source` = coalesce(OLD.`utm_source`, OLD.`referrer`, '') AND `day` = OLD.`created_at` / 86400000 AND `count` <= 0;
	INSERT INTO `funnel_durations` (`waitlist_id`, `day`, `kind`, `bucket`, `count`)
	SELECT `waitlist_id`, `day`, `kind`, `bucket`, -1 FROM `signup_funnel_durations` WHERE `signup_id` = OLD.`id` AND OLD.`invited_at` IS NOT NULL
	ON CONFLICT DO UPDATE SET `count` = `count` - 1;
	DELETE FROM `funnel_durations` WHERE (`waitlist_id`, `kind`, `bucket`, `day`) IN (SELECT `waitlist_id`, `kind`, `bucket`, `day` FROM `signup_funnel_durations` WHERE `signup_id` = OLD.`id`) AND `count` <= 0;
END;
--> statement-breakpoint
-- The first invitation and the completion are dated from the status change that made them.
CREATE TRIGGER `funnel_first_invited` AFTER UPDATE OF `status` ON `signups` WHEN NEW.`status` = 'invited' AND NEW.`invited_at` IS NULL BEGIN
	UPDATE `signups` SET `invited_at` = coalesce(NEW.`status_changed_at`, CAST(unixepoch('subsec') * 1000 AS integer)) WHERE `id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `funnel_completed` AFTER UPDATE OF `status` ON `signups` WHEN NEW.`status` = 'completed' AND NEW.`completed_at` IS NULL BEGIN
	UPDATE `signups` SET `completed_at` = coalesce(NEW.`status_changed_at`, CAST(unixepoch('subsec') * 1000 AS integer)) WHERE `id` = NEW.`id`;
END;
--> statement-breakpoint
-- Expiry is counted from the events by type name: whichever writer records it, the signup is marked once.
CREATE TRIGGER `funnel_invitation_expired` AFTER INSERT ON `events` WHEN NEW.`type` = 'signup.invitation_expired' AND NEW.`signup_id` IS NOT NULL BEGIN
	UPDATE `signups` SET `expired_at` = NEW.`created_at` WHERE `id` = NEW.`signup_id` AND `expired_at` IS NULL;
END;
