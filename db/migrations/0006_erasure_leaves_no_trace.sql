-- A deleted signup (an erasure, a deleted waitlist) must leave nothing derived behind.
-- 1. The search index: by default FTS5 only records a delete marker beside the old entries until a
--    later merge. With 'secure-delete' (SQLite 3.42+) every delete removes them at once. The setting
--    lives in the index's own config table, so it holds for every connection and every writer.
INSERT INTO `signup_email_search` (`signup_email_search`, `rank`) VALUES ('secure-delete', 1);
--> statement-breakpoint
-- 2. signup_counts kept a row at count 0 when its last signup went: the trace of an erased person's
--    day and flags, and every row of a deleted waitlist. Rows now go at 0, as signup_input_counts' do.
DROP TRIGGER `signup_counts_after_delete`;
--> statement-breakpoint
CREATE TRIGGER `signup_counts_after_delete` AFTER DELETE ON `signups` BEGIN
	UPDATE `signup_counts` SET `count` = `count` - 1
	WHERE `waitlist_id` = OLD.`waitlist_id` AND `verified` = OLD.`verified` AND `referral` = OLD.`referral` AND `day` = OLD.`created_at` / 86400000;
	DELETE FROM `signup_counts`
	WHERE `waitlist_id` = OLD.`waitlist_id` AND `verified` = OLD.`verified` AND `referral` = OLD.`referral` AND `day` = OLD.`created_at` / 86400000 AND `count` <= 0;
END;
--> statement-breakpoint
DROP TRIGGER `signup_counts_after_update`;
--> statement-breakpoint
CREATE TRIGGER `signup_counts_after_update` AFTER UPDATE OF `waitlist_id`, `verified`, `referral`, `created_at` ON `signups` BEGIN
	UPDATE `signup_counts` SET `count` = `count` - 1
	WHERE `waitlist_id` = OLD.`waitlist_id` AND `verified` = OLD.`verified` AND `referral` = OLD.`referral` AND `day` = OLD.`created_at` / 86400000;
	DELETE FROM `signup_counts`
	WHERE `waitlist_id` = OLD.`waitlist_id` AND `verified` = OLD.`verified` AND `referral` = OLD.`referral` AND `day` = OLD.`created_at` / 86400000 AND `count` <= 0;
	INSERT INTO `signup_counts` (`waitlist_id`, `verified`, `referral`, `day`, `count`)
	VALUES (NEW.`waitlist_id`, NEW.`verified`, NEW.`referral`, NEW.`created_at` / 86400000, 1)
	ON CONFLICT (`waitlist_id`, `verified`, `referral`, `day`) DO UPDATE SET `count` = `count` + 1;
END;
--> statement-breakpoint
DELETE FROM `signup_counts` WHERE `count` <= 0;
