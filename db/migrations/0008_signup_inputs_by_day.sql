-- signup_inputs keyed by (waitlist, label, value, created_at, signup id): the signups of one custom
-- input over a date range (a chart's days, a range's counts, the newest for a facet) are one range
-- of the key instead of every signup of that input. The triggers that write the table are dropped
-- first (a table cannot be renamed while a trigger names a missing one) and created again unchanged.
-- The columns are declared in the key's order: sqlite3 3.40's integrity_check misreads a WITHOUT
-- ROWID table whose key columns come in another order (it reports NULLs that are not there).
DROP TRIGGER `signups_derive_after_insert`;
--> statement-breakpoint
DROP TRIGGER `signups_derive_after_delete`;
--> statement-breakpoint
DROP TRIGGER `signups_derive_after_update`;
--> statement-breakpoint
CREATE TABLE `__new_signup_inputs` (
	`waitlist_id` text NOT NULL,
	`label` text NOT NULL,
	`value` text NOT NULL,
	`created_at` integer NOT NULL,
	`signup_id` integer NOT NULL,
	`verified` integer NOT NULL,
	`referral` integer NOT NULL,
	PRIMARY KEY(`waitlist_id`, `label`, `value`, `created_at`, `signup_id`)
) WITHOUT ROWID;
--> statement-breakpoint
-- In key order, so that every row is appended.
INSERT INTO `__new_signup_inputs` (`waitlist_id`, `label`, `value`, `signup_id`, `verified`, `referral`, `created_at`)
SELECT `waitlist_id`, `label`, `value`, `signup_id`, `verified`, `referral`, `created_at` FROM `signup_inputs`
ORDER BY `waitlist_id`, `label`, `value`, `created_at`, `signup_id`;
--> statement-breakpoint
DROP TABLE `signup_inputs`;
--> statement-breakpoint
ALTER TABLE `__new_signup_inputs` RENAME TO `signup_inputs`;
--> statement-breakpoint
CREATE INDEX `signup_inputs_signup_idx` ON `signup_inputs` (`signup_id`);
--> statement-breakpoint
CREATE TRIGGER `signups_derive_after_insert` AFTER INSERT ON `signups`
WHEN NOT EXISTS (SELECT 1 FROM `deferred_derivations`)
BEGIN
	INSERT INTO `signup_counts` (`waitlist_id`, `verified`, `referral`, `day`, `count`)
	VALUES (NEW.`waitlist_id`, NEW.`verified`, NEW.`referral`, NEW.`created_at` / 86400000, 1)
	ON CONFLICT (`waitlist_id`, `verified`, `referral`, `day`) DO UPDATE SET `count` = `count` + 1;
	INSERT INTO `signup_email_search` (`rowid`, `email`) VALUES (NEW.`id`, NEW.`email`);
	INSERT INTO `signup_inputs` (`waitlist_id`, `label`, `value`, `signup_id`, `verified`, `referral`, `created_at`)
	SELECT `waitlist_id`, `label`, `value`, `signup_id`, `verified`, `referral`, `created_at` FROM `signup_input_pairs` WHERE `signup_id` = NEW.`id`
	ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
CREATE TRIGGER `signup_inputs_count_after_insert` AFTER INSERT ON `signup_inputs`
WHEN NOT EXISTS (SELECT 1 FROM `deferred_derivations`)
BEGIN
	INSERT INTO `signup_input_counts` (`waitlist_id`, `label`, `value`, `verified`, `referral`, `count`)
	VALUES (NEW.`waitlist_id`, NEW.`label`, NEW.`value`, NEW.`verified`, NEW.`referral`, 1)
	ON CONFLICT DO UPDATE SET `count` = `count` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `signup_inputs_count_after_delete` AFTER DELETE ON `signup_inputs` BEGIN
	UPDATE `signup_input_counts` SET `count` = `count` - 1
	WHERE `waitlist_id` = OLD.`waitlist_id` AND `label` = OLD.`label` AND `value` = OLD.`value` AND `verified` = OLD.`verified` AND `referral` = OLD.`referral`;
	DELETE FROM `signup_input_counts`
	WHERE `waitlist_id` = OLD.`waitlist_id` AND `label` = OLD.`label` AND `value` = OLD.`value` AND `verified` = OLD.`verified` AND `referral` = OLD.`referral` AND `count` <= 0;
END;
--> statement-breakpoint
CREATE TRIGGER `signups_derive_after_delete` AFTER DELETE ON `signups` BEGIN
	INSERT INTO `signup_email_search` (`signup_email_search`, `rowid`, `email`) VALUES ('delete', OLD.`id`, OLD.`email`);
	DELETE FROM `signup_inputs` WHERE `signup_id` = OLD.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `signups_derive_after_update` AFTER UPDATE OF `waitlist_id`, `email`, `verified`, `referral`, `custom_inputs`, `created_at` ON `signups` BEGIN
	INSERT INTO `signup_email_search` (`signup_email_search`, `rowid`, `email`) VALUES ('delete', OLD.`id`, OLD.`email`);
	INSERT INTO `signup_email_search` (`rowid`, `email`) VALUES (NEW.`id`, NEW.`email`);
	DELETE FROM `signup_inputs` WHERE `signup_id` = OLD.`id`;
	INSERT INTO `signup_inputs` (`waitlist_id`, `label`, `value`, `signup_id`, `verified`, `referral`, `created_at`)
	SELECT `waitlist_id`, `label`, `value`, `signup_id`, `verified`, `referral`, `created_at` FROM `signup_input_pairs` WHERE `signup_id` = NEW.`id`
	ON CONFLICT DO NOTHING;
END;
