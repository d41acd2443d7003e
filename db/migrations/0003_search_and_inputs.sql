CREATE TABLE `deferred_derivations` (
	`after_signup_id` integer PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE `signup_input_counts` (
	`waitlist_id` text NOT NULL,
	`label` text NOT NULL,
	`value` text NOT NULL,
	`verified` integer NOT NULL,
	`referral` integer NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`waitlist_id`, `label`, `value`, `verified`, `referral`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `signup_inputs` (
	`waitlist_id` text NOT NULL,
	`label` text NOT NULL,
	`value` text NOT NULL,
	`signup_id` integer NOT NULL,
	`verified` integer NOT NULL,
	`referral` integer NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`waitlist_id`, `label`, `value`, `signup_id`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `signup_inputs_signup_idx` ON `signup_inputs` (`signup_id`);--> statement-breakpoint
DROP INDEX `signups_waitlist_verified_order_idx`;--> statement-breakpoint
DROP INDEX `signups_waitlist_referral_order_idx`;--> statement-breakpoint
DROP INDEX `signups_waitlist_verified_referral_order_idx`;--> statement-breakpoint
-- A signup's custom inputs as (label, value) pairs, the one definition that triggers, bulk writes
-- and this migration's backfill read. Values are compared as text: a string as itself, a number,
-- true or false as its JSON text. Nulls, arrays and objects nested deeper give no pair.
CREATE VIEW `signup_input_pairs` AS
SELECT `signups`.`id` AS `signup_id`, `signups`.`waitlist_id`, `signups`.`verified`, `signups`.`referral`, `signups`.`created_at`,
	`item`.`value` ->> '$.label' AS `label`,
	iif(json_type(`item`.`value`, '$.value') = 'text', `item`.`value` ->> '$.value', `item`.`value` -> '$.value') AS `value`
FROM `signups`, json_each(`signups`.`custom_inputs`) AS `item`
WHERE `item`.`type` = 'object' AND json_type(`item`.`value`, '$.label') = 'text'
	AND json_type(`item`.`value`, '$.value') IN ('text', 'integer', 'real', 'true', 'false')
UNION ALL
SELECT `signups`.`id`, `signups`.`waitlist_id`, `signups`.`verified`, `signups`.`referral`, `signups`.`created_at`,
	`property`.`key`,
	iif(`property`.`type` = 'text', `property`.`value`, `item`.`value` -> `property`.`fullkey`)
FROM `signups`, json_each(`signups`.`custom_inputs`) AS `item`, json_each(`item`.`value`) AS `property`
WHERE `item`.`type` = 'object'
	AND NOT coalesce(json_type(`item`.`value`, '$.label') = 'text' AND json_type(`item`.`value`, '$.value') IN ('text', 'integer', 'real', 'true', 'false'), 0)
	AND `property`.`type` IN ('text', 'integer', 'real', 'true', 'false');
--> statement-breakpoint
-- The email search index: trigrams of every address (any substring of 3+ characters, case-insensitive),
-- over the signups table itself (external content: the addresses are not stored twice).
CREATE VIRTUAL TABLE `signup_email_search` USING fts5(`email`, content='signups', content_rowid='id', tokenize='trigram', detail='none');
--> statement-breakpoint
INSERT INTO `signup_email_search` (`signup_email_search`) VALUES ('rebuild');
--> statement-breakpoint
INSERT INTO `signup_inputs` (`waitlist_id`, `label`, `value`, `signup_id`, `verified`, `referral`, `created_at`)
SELECT `waitlist_id`, `label`, `value`, `signup_id`, `verified`, `referral`, `created_at` FROM `signup_input_pairs` WHERE true
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `signup_input_counts` (`waitlist_id`, `label`, `value`, `verified`, `referral`, `count`)
SELECT `waitlist_id`, `label`, `value`, `verified`, `referral`, count(*) FROM `signup_inputs` GROUP BY 1, 2, 3, 4, 5;
--> statement-breakpoint
-- Inserts: skipped while a bulk writer has a row in deferred_derivations (it derives its rows at the end).
DROP TRIGGER `signup_counts_after_insert`;
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
-- Nothing in the app changes these columns; the trigger keeps the derived data exact for anyone who does.
CREATE TRIGGER `signups_derive_after_update` AFTER UPDATE OF `waitlist_id`, `email`, `verified`, `referral`, `custom_inputs`, `created_at` ON `signups` BEGIN
	INSERT INTO `signup_email_search` (`signup_email_search`, `rowid`, `email`) VALUES ('delete', OLD.`id`, OLD.`email`);
	INSERT INTO `signup_email_search` (`rowid`, `email`) VALUES (NEW.`id`, NEW.`email`);
	DELETE FROM `signup_inputs` WHERE `signup_id` = OLD.`id`;
	INSERT INTO `signup_inputs` (`waitlist_id`, `label`, `value`, `signup_id`, `verified`, `referral`, `created_at`)
	SELECT `waitlist_id`, `label`, `value`, `signup_id`, `verified`, `referral`, `created_at` FROM `signup_input_pairs` WHERE `signup_id` = NEW.`id`
	ON CONFLICT DO NOTHING;
END;
