-- One writer of signups: the bulk writer (lib/domain/signups/bulk-insert.ts) derives its rows itself, so
-- nothing defers the insert triggers any more; they are created again without their WHEN clause and
-- derive a row that anything else inserts. The new key is shown in the response that creates it:
-- nothing holds it in the database.
DROP TRIGGER `signups_derive_after_insert`;
--> statement-breakpoint
DROP TRIGGER `signup_inputs_count_after_insert`;
--> statement-breakpoint
CREATE TRIGGER `signups_derive_after_insert` AFTER INSERT ON `signups` BEGIN
	INSERT INTO `signup_counts` (`waitlist_id`, `verified`, `referral`, `day`, `count`)
	VALUES (NEW.`waitlist_id`, NEW.`verified`, NEW.`referral`, NEW.`created_at` / 86400000, 1)
	ON CONFLICT (`waitlist_id`, `verified`, `referral`, `day`) DO UPDATE SET `count` = `count` + 1;
	INSERT INTO `signup_email_search` (`rowid`, `email`) VALUES (NEW.`id`, NEW.`email`);
	INSERT INTO `signup_inputs` (`waitlist_id`, `label`, `value`, `signup_id`, `verified`, `referral`, `created_at`)
	SELECT `waitlist_id`, `label`, `value`, `signup_id`, `verified`, `referral`, `created_at` FROM `signup_input_pairs` WHERE `signup_id` = NEW.`id`
	ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
CREATE TRIGGER `signup_inputs_count_after_insert` AFTER INSERT ON `signup_inputs` BEGIN
	INSERT INTO `signup_input_counts` (`waitlist_id`, `label`, `value`, `verified`, `referral`, `count`)
	VALUES (NEW.`waitlist_id`, NEW.`label`, NEW.`value`, NEW.`verified`, NEW.`referral`, 1)
	ON CONFLICT DO UPDATE SET `count` = `count` + 1;
END;
--> statement-breakpoint
DROP TABLE `deferred_derivations`;
--> statement-breakpoint
DROP TABLE `new_key_reveals`;
