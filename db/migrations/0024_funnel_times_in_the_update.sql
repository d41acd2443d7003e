-- Two costs of the funnel's triggers (migration 0023), measured inviting 10,000 of a 40,000 list
-- (3,447 ms; 372 without the funnel's triggers):
-- 1. Their deletes of rows counted down to zero named no `stage` (or, for the durations, an OR of two
--    keys), so each walked a source's or a list's every row: keyed whole, and run only when a count
--    went down, inviting the 10,000 took 981 ms.
-- 2. The first invitation and the completion were dated by triggers that wrote each row a second
--    time; the status change's own UPDATE dates them now (lib/domain/signups/transitions.ts): 553 ms.
DROP TRIGGER `funnel_first_invited`;
--> statement-breakpoint
DROP TRIGGER `funnel_completed`;
--> statement-breakpoint
DROP TRIGGER `funnel_after_times`;
--> statement-breakpoint
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
	DELETE FROM `funnel_counts` WHERE (OLD.`invited_at` IS NOT NULL AND NEW.`invited_at` IS NULL OR OLD.`completed_at` IS NOT NULL AND NEW.`completed_at` IS NULL OR OLD.`expired_at` IS NOT NULL AND NEW.`expired_at` IS NULL) AND `waitlist_id` = NEW.`waitlist_id` AND `day` = NEW.`created_at` / 86400000 AND `stage` IN ('invited', 'completed', 'expired') AND `count` <= 0;
	DELETE FROM `funnel_source_counts` WHERE (OLD.`invited_at` IS NOT NULL AND NEW.`invited_at` IS NULL OR OLD.`completed_at` IS NOT NULL AND NEW.`completed_at` IS NULL OR OLD.`expired_at` IS NOT NULL AND NEW.`expired_at` IS NULL) AND `waitlist_id` = NEW.`waitlist_id` AND `source` = coalesce(NEW.`utm_source`, NEW.`referrer`, '') AND `stage` IN ('invited', 'completed', 'expired') AND `day` = NEW.`created_at` / 86400000 AND `count` <= 0;
	INSERT INTO `funnel_durations` (`waitlist_id`, `kind`, `bucket`, `day`, `count`)
	SELECT NEW.`waitlist_id`, `kind`, `bucket`, NEW.`created_at` / 86400000, sum(`delta`) FROM (
		SELECT 'invite' AS `kind`, CASE WHEN max(OLD.`invited_at` - OLD.`created_at`, 0) < 172800000 THEN max(OLD.`invited_at` - OLD.`created_at`, 0) / 3600000 ELSE max(OLD.`invited_at` - OLD.`created_at`, 0) / 86400000 * 24 END AS `bucket`, -1 AS `delta` WHERE OLD.`invited_at` IS NOT NULL
		UNION ALL SELECT 'redeem', CASE WHEN max(OLD.`completed_at` - OLD.`invited_at`, 0) < 172800000 THEN max(OLD.`completed_at` - OLD.`invited_at`, 0) / 3600000 ELSE max(OLD.`completed_at` - OLD.`invited_at`, 0) / 86400000 * 24 END, -1 WHERE OLD.`invited_at` IS NOT NULL AND OLD.`completed_at` IS NOT NULL
		UNION ALL SELECT 'invite', CASE WHEN max(NEW.`invited_at` - NEW.`created_at`, 0) < 172800000 THEN max(NEW.`invited_at` - NEW.`created_at`, 0) / 3600000 ELSE max(NEW.`invited_at` - NEW.`created_at`, 0) / 86400000 * 24 END, 1 WHERE NEW.`invited_at` IS NOT NULL
		UNION ALL SELECT 'redeem', CASE WHEN max(NEW.`completed_at` - NEW.`invited_at`, 0) < 172800000 THEN max(NEW.`completed_at` - NEW.`invited_at`, 0) / 3600000 ELSE max(NEW.`completed_at` - NEW.`invited_at`, 0) / 86400000 * 24 END, 1 WHERE NEW.`invited_at` IS NOT NULL AND NEW.`completed_at` IS NOT NULL
	) WHERE true GROUP BY `kind`, `bucket` HAVING sum(`delta`) <> 0
	ON CONFLICT DO UPDATE SET `count` = `count` + excluded.`count`;
	DELETE FROM `funnel_durations` WHERE OLD.`invited_at` IS NOT NULL AND NEW.`invited_at` IS NOT OLD.`invited_at`
		AND `waitlist_id` = NEW.`waitlist_id` AND `kind` = 'invite' AND `bucket` = CASE WHEN max(OLD.`invited_at` - OLD.`created_at`, 0) < 172800000 THEN max(OLD.`invited_at` - OLD.`created_at`, 0) / 3600000 ELSE max(OLD.`invited_at` - OLD.`created_at`, 0) / 86400000 * 24 END AND `day` = NEW.`created_at` / 86400000 AND `count` <= 0;
	DELETE FROM `funnel_durations` WHERE OLD.`invited_at` IS NOT NULL AND OLD.`completed_at` IS NOT NULL AND (NEW.`invited_at` IS NOT OLD.`invited_at` OR NEW.`completed_at` IS NOT OLD.`completed_at`)
		AND `waitlist_id` = NEW.`waitlist_id` AND `kind` = 'redeem' AND `bucket` = CASE WHEN max(OLD.`completed_at` - OLD.`invited_at`, 0) < 172800000 THEN max(OLD.`completed_at` - OLD.`invited_at`, 0) / 3600000 ELSE max(OLD.`completed_at` - OLD.`invited_at`, 0) / 86400000 * 24 END AND `day` = NEW.`created_at` / 86400000 AND `count` <= 0;
END;
--> statement-breakpoint
DROP TRIGGER `funnel_before_update`;
--> statement-breakpoint
CREATE TRIGGER `funnel_before_update` BEFORE UPDATE OF `waitlist_id`, `created_at`, `verified`, `referral`, `utm_source`, `referrer`, `invited_at`, `completed_at`, `expired_at` ON `signups` WHEN NOT (NEW.`waitlist_id` IS OLD.`waitlist_id` AND NEW.`created_at` IS OLD.`created_at` AND NEW.`verified` IS OLD.`verified` AND NEW.`referral` IS OLD.`referral` AND coalesce(NEW.`utm_source`, NEW.`referrer`, '') IS coalesce(OLD.`utm_source`, OLD.`referrer`, '')) BEGIN
	INSERT INTO `funnel_counts` (`waitlist_id`, `day`, `stage`, `count`)
	SELECT `waitlist_id`, `day`, `stage`, -1 FROM `signup_funnel_stages` WHERE `signup_id` = OLD.`id`
	ON CONFLICT DO UPDATE SET `count` = `count` - 1;
	INSERT INTO `funnel_source_counts` (`waitlist_id`, `source`, `stage`, `day`, `count`)
	SELECT `waitlist_id`, `source`, `stage`, `day`, -1 FROM `signup_funnel_stages` WHERE `signup_id` = OLD.`id`
	ON CONFLICT DO UPDATE SET `count` = `count` - 1;
	DELETE FROM `funnel_counts` WHERE `waitlist_id` = OLD.`waitlist_id` AND `day` = OLD.`created_at` / 86400000 AND `count` <= 0;
	DELETE FROM `funnel_source_counts` WHERE `waitlist_id` = OLD.`waitlist_id` AND `source` = coalesce(OLD.`utm_source`, OLD.`referrer`, '') AND `stage` IN ('joined', 'referred', 'verified', 'invited', 'completed', 'expired') AND `day` = OLD.`created_at` / 86400000 AND `count` <= 0;
	INSERT INTO `funnel_durations` (`waitlist_id`, `day`, `kind`, `bucket`, `count`)
	SELECT `waitlist_id`, `day`, `kind`, `bucket`, -1 FROM `signup_funnel_durations` WHERE `signup_id` = OLD.`id` AND OLD.`invited_at` IS NOT NULL
	ON CONFLICT DO UPDATE SET `count` = `count` - 1;
	DELETE FROM `funnel_durations` WHERE (`waitlist_id`, `kind`, `bucket`, `day`) IN (SELECT `waitlist_id`, `kind`, `bucket`, `day` FROM `signup_funnel_durations` WHERE `signup_id` = OLD.`id`) AND `count` <= 0;
END;
--> statement-breakpoint
DROP TRIGGER `funnel_before_delete`;
--> statement-breakpoint
CREATE TRIGGER `funnel_before_delete` BEFORE DELETE ON `signups` BEGIN
	INSERT INTO `funnel_counts` (`waitlist_id`, `day`, `stage`, `count`)
	SELECT `waitlist_id`, `day`, `stage`, -1 FROM `signup_funnel_stages` WHERE `signup_id` = OLD.`id`
	ON CONFLICT DO UPDATE SET `count` = `count` - 1;
	INSERT INTO `funnel_source_counts` (`waitlist_id`, `source`, `stage`, `day`, `count`)
	SELECT `waitlist_id`, `source`, `stage`, `day`, -1 FROM `signup_funnel_stages` WHERE `signup_id` = OLD.`id`
	ON CONFLICT DO UPDATE SET `count` = `count` - 1;
	DELETE FROM `funnel_counts` WHERE `waitlist_id` = OLD.`waitlist_id` AND `day` = OLD.`created_at` / 86400000 AND `count` <= 0;
	DELETE FROM `funnel_source_counts` WHERE `waitlist_id` = OLD.`waitlist_id` AND `source` = coalesce(OLD.`utm_source`, OLD.`referrer`, '') AND `stage` IN ('joined', 'referred', 'verified', 'invited', 'completed', 'expired') AND `day` = OLD.`created_at` / 86400000 AND `count` <= 0;
	INSERT INTO `funnel_durations` (`waitlist_id`, `day`, `kind`, `bucket`, `count`)
	SELECT `waitlist_id`, `day`, `kind`, `bucket`, -1 FROM `signup_funnel_durations` WHERE `signup_id` = OLD.`id` AND OLD.`invited_at` IS NOT NULL
	ON CONFLICT DO UPDATE SET `count` = `count` - 1;
	DELETE FROM `funnel_durations` WHERE (`waitlist_id`, `kind`, `bucket`, `day`) IN (SELECT `waitlist_id`, `kind`, `bucket`, `day` FROM `signup_funnel_durations` WHERE `signup_id` = OLD.`id`) AND `count` <= 0;
END;
