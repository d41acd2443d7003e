-- Signup statuses (lib/domain/signups/status.ts): every existing signup is `waiting`. A column
-- added with a default costs no rewrite of the table; its CHECK is tested once against every row.
-- The CHECK is written with OR, not IN: SQLite builds a table of an IN list each time a statement
-- runs, which cost an import 2 µs per row (14 % of its CPU); four comparisons cost nothing measurable.
ALTER TABLE `signups` ADD `status` text DEFAULT 'waiting' NOT NULL CHECK (`status` = 'waiting' OR `status` = 'invited' OR `status` = 'completed' OR `status` = 'rejected');
--> statement-breakpoint
ALTER TABLE `signups` ADD `status_changed_at` integer;
--> statement-breakpoint
-- signup_counts keyed by status as well, so that the status facet and a status filter over flags and
-- dates read a few hundred rows, like verified and referral. Its triggers are dropped first (a table
-- cannot be renamed while a trigger names a missing one) and created again with the status.
DROP TRIGGER `signups_derive_after_insert`;
--> statement-breakpoint
DROP TRIGGER `signup_counts_after_delete`;
--> statement-breakpoint
DROP TRIGGER `signup_counts_after_update`;
--> statement-breakpoint
CREATE TABLE `__new_signup_counts` (
	`waitlist_id` text NOT NULL,
	`verified` integer NOT NULL,
	`referral` integer NOT NULL,
	`status` text NOT NULL,
	`day` integer NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`waitlist_id`, `verified`, `referral`, `status`, `day`)
);
--> statement-breakpoint
INSERT INTO `__new_signup_counts` (`waitlist_id`, `verified`, `referral`, `status`, `day`, `count`)
SELECT `waitlist_id`, `verified`, `referral`, 'waiting', `day`, `count` FROM `signup_counts`;
--> statement-breakpoint
DROP TABLE `signup_counts`;
--> statement-breakpoint
ALTER TABLE `__new_signup_counts` RENAME TO `signup_counts`;
--> statement-breakpoint
CREATE TRIGGER `signups_derive_after_insert` AFTER INSERT ON `signups` BEGIN
	INSERT INTO `signup_counts` (`waitlist_id`, `verified`, `referral`, `status`, `day`, `count`)
	VALUES (NEW.`waitlist_id`, NEW.`verified`, NEW.`referral`, NEW.`status`, NEW.`created_at` / 86400000, 1)
	ON CONFLICT (`waitlist_id`, `verified`, `referral`, `status`, `day`) DO UPDATE SET `count` = `count` + 1;
	INSERT INTO `signup_email_search` (`rowid`, `email`) VALUES (NEW.`id`, NEW.`email`);
	INSERT INTO `signup_inputs` (`waitlist_id`, `label`, `value`, `signup_id`, `verified`, `referral`, `created_at`)
	SELECT `waitlist_id`, `label`, `value`, `signup_id`, `verified`, `referral`, `created_at` FROM `signup_input_pairs` WHERE `signup_id` = NEW.`id`
	ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
CREATE TRIGGER `signup_counts_after_delete` AFTER DELETE ON `signups` BEGIN
	UPDATE `signup_counts` SET `count` = `count` - 1
	WHERE `waitlist_id` = OLD.`waitlist_id` AND `verified` = OLD.`verified` AND `referral` = OLD.`referral` AND `status` = OLD.`status` AND `day` = OLD.`created_at` / 86400000;
	DELETE FROM `signup_counts`
	WHERE `waitlist_id` = OLD.`waitlist_id` AND `verified` = OLD.`verified` AND `referral` = OLD.`referral` AND `status` = OLD.`status` AND `day` = OLD.`created_at` / 86400000 AND `count` <= 0;
END;
--> statement-breakpoint
CREATE TRIGGER `signup_counts_after_update` AFTER UPDATE OF `waitlist_id`, `verified`, `referral`, `status`, `created_at` ON `signups` BEGIN
	UPDATE `signup_counts` SET `count` = `count` - 1
	WHERE `waitlist_id` = OLD.`waitlist_id` AND `verified` = OLD.`verified` AND `referral` = OLD.`referral` AND `status` = OLD.`status` AND `day` = OLD.`created_at` / 86400000;
	DELETE FROM `signup_counts`
	WHERE `waitlist_id` = OLD.`waitlist_id` AND `verified` = OLD.`verified` AND `referral` = OLD.`referral` AND `status` = OLD.`status` AND `day` = OLD.`created_at` / 86400000 AND `count` <= 0;
	INSERT INTO `signup_counts` (`waitlist_id`, `verified`, `referral`, `status`, `day`, `count`)
	VALUES (NEW.`waitlist_id`, NEW.`verified`, NEW.`referral`, NEW.`status`, NEW.`created_at` / 86400000, 1)
	ON CONFLICT (`waitlist_id`, `verified`, `referral`, `status`, `day`) DO UPDATE SET `count` = `count` + 1;
END;
--> statement-breakpoint
-- The transactional outbox: one row per status change, erasure and import, appended in the write's own
-- transaction. AUTOINCREMENT: an id is never given twice, even after the newest rows go, so a reader
-- can remember the last id it delivered. Payloads never hold an address (an erasure leaves no trace).
CREATE TABLE `events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`type` text NOT NULL,
	`waitlist_id` text NOT NULL,
	`signup_id` integer,
	`created_at` integer NOT NULL,
	`payload` text NOT NULL CHECK (json_valid(`payload`))
);
--> statement-breakpoint
CREATE INDEX `events_signup_idx` ON `events` (`signup_id`) WHERE `signup_id` IS NOT NULL;
--> statement-breakpoint
-- The first answer to a /v1 write sent with an Idempotency-Key, per API key, for 24 hours.
CREATE TABLE `idempotent_requests` (
	`api_key_id` text NOT NULL,
	`key` text NOT NULL,
	`request_hash` text NOT NULL,
	`status` integer NOT NULL,
	`body` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`api_key_id`, `key`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `idempotent_requests_created_at_idx` ON `idempotent_requests` (`created_at`);
--> statement-breakpoint
-- The signups that left `waiting`: few where a list is drained a batch at a time, so counting them per
-- status under any filter reads this index only, and an import (every new signup waiting) adds nothing to it.
CREATE INDEX `signups_changed_status_idx` ON `signups` (`waitlist_id`, `status`, `created_at`) WHERE `status` <> 'waiting';
