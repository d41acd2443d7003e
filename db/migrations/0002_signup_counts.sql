CREATE TABLE `signup_counts` (
	`waitlist_id` text NOT NULL,
	`verified` integer NOT NULL,
	`referral` integer NOT NULL,
	`day` integer NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`waitlist_id`, `verified`, `referral`, `day`)
);
--> statement-breakpoint
-- Kept by triggers so that every write path (the CLI import, tests, future writers) stays exact.
CREATE TRIGGER `signup_counts_after_insert` AFTER INSERT ON `signups` BEGIN
	INSERT INTO `signup_counts` (`waitlist_id`, `verified`, `referral`, `day`, `count`)
	VALUES (NEW.`waitlist_id`, NEW.`verified`, NEW.`referral`, NEW.`created_at` / 86400000, 1)
	ON CONFLICT (`waitlist_id`, `verified`, `referral`, `day`) DO UPDATE SET `count` = `count` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `signup_counts_after_delete` AFTER DELETE ON `signups` BEGIN
	UPDATE `signup_counts` SET `count` = `count` - 1
	WHERE `waitlist_id` = OLD.`waitlist_id` AND `verified` = OLD.`verified` AND `referral` = OLD.`referral` AND `day` = OLD.`created_at` / 86400000;
END;
--> statement-breakpoint
CREATE TRIGGER `signup_counts_after_update` AFTER UPDATE OF `waitlist_id`, `verified`, `referral`, `created_at` ON `signups` BEGIN
	UPDATE `signup_counts` SET `count` = `count` - 1
	WHERE `waitlist_id` = OLD.`waitlist_id` AND `verified` = OLD.`verified` AND `referral` = OLD.`referral` AND `day` = OLD.`created_at` / 86400000;
	INSERT INTO `signup_counts` (`waitlist_id`, `verified`, `referral`, `day`, `count`)
	VALUES (NEW.`waitlist_id`, NEW.`verified`, NEW.`referral`, NEW.`created_at` / 86400000, 1)
	ON CONFLICT (`waitlist_id`, `verified`, `referral`, `day`) DO UPDATE SET `count` = `count` + 1;
END;
--> statement-breakpoint
INSERT INTO `signup_counts` (`waitlist_id`, `verified`, `referral`, `day`, `count`)
SELECT `waitlist_id`, `verified`, `referral`, `created_at` / 86400000, count(*) FROM `signups` GROUP BY 1, 2, 3, 4;
