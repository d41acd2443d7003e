CREATE TABLE `signup_input_status_counts` (
	`waitlist_id` text NOT NULL,
	`label` text NOT NULL,
	`value` text NOT NULL,
	`status` text NOT NULL,
	`verified` integer NOT NULL,
	`referral` integer NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`waitlist_id`, `label`, `value`, `status`, `verified`, `referral`)
);
--> statement-breakpoint
-- What the table holds, counted once from the signups that are not waiting.
INSERT INTO `signup_input_status_counts` (`waitlist_id`, `label`, `value`, `status`, `verified`, `referral`, `count`)
SELECT `signup_inputs`.`waitlist_id`, `label`, `value`, `signups`.`status`, `signup_inputs`.`verified`, `signup_inputs`.`referral`, count(*)
FROM `signups` INDEXED BY `signups_changed_status_idx` JOIN `signup_inputs` ON `signup_inputs`.`signup_id` = `signups`.`id`
WHERE `signups`.`status` <> 'waiting'
GROUP BY 1, 2, 3, 4, 5, 6;
--> statement-breakpoint
-- Only signups that are, or were, not waiting do any of this: an invitation adds its pairs, a change of a
-- waiting signup costs nothing. Before a change or a deletion, the signup's old pairs are taken away (read
-- from signup_inputs, which the derive triggers rewrite only after the change); after a change the new ones
-- are added: from signup_inputs when the inputs stayed the same (an index range: a status action costs a
-- few µs per signup), from the view signup_input_pairs when they changed. A pair given twice in one signup
-- counts once, as in signup_inputs. Rows go at zero: no value outlives the last signup that gave it. An
-- insert reads the view; the bulk writer counts its own inserts (it drops that trigger while it runs).
CREATE TRIGGER `signup_input_status_counts_after_insert` AFTER INSERT ON `signups` WHEN NEW.`status` <> 'waiting' BEGIN
	INSERT INTO `signup_input_status_counts` (`waitlist_id`, `label`, `value`, `status`, `verified`, `referral`, `count`)
	SELECT DISTINCT NEW.`waitlist_id`, `label`, `value`, NEW.`status`, NEW.`verified`, NEW.`referral`, 1 FROM `signup_input_pairs` WHERE `signup_id` = NEW.`id`
	ON CONFLICT DO UPDATE SET `count` = `count` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `signup_input_status_counts_before_update` BEFORE UPDATE OF `waitlist_id`, `verified`, `referral`, `status`, `custom_inputs` ON `signups` WHEN OLD.`status` <> 'waiting' BEGIN
	INSERT INTO `signup_input_status_counts` (`waitlist_id`, `label`, `value`, `status`, `verified`, `referral`, `count`)
	SELECT OLD.`waitlist_id`, `label`, `value`, OLD.`status`, OLD.`verified`, OLD.`referral`, -1 FROM `signup_inputs` WHERE `signup_id` = OLD.`id` AND true
	ON CONFLICT DO UPDATE SET `count` = `count` - 1;
	DELETE FROM `signup_input_status_counts`
	WHERE (`waitlist_id`, `label`, `value`, `status`, `verified`, `referral`) IN (SELECT OLD.`waitlist_id`, `label`, `value`, OLD.`status`, OLD.`verified`, OLD.`referral` FROM `signup_inputs` WHERE `signup_id` = OLD.`id`)
		AND `count` <= 0;
END;
--> statement-breakpoint
CREATE TRIGGER `signup_input_status_counts_after_update` AFTER UPDATE OF `waitlist_id`, `verified`, `referral`, `status`, `custom_inputs` ON `signups` WHEN NEW.`status` <> 'waiting' BEGIN
	INSERT INTO `signup_input_status_counts` (`waitlist_id`, `label`, `value`, `status`, `verified`, `referral`, `count`)
	SELECT NEW.`waitlist_id`, `label`, `value`, NEW.`status`, NEW.`verified`, NEW.`referral`, 1 FROM `signup_inputs` WHERE `signup_id` = NEW.`id` AND OLD.`custom_inputs` IS NEW.`custom_inputs`
	UNION
	SELECT NEW.`waitlist_id`, `label`, `value`, NEW.`status`, NEW.`verified`, NEW.`referral`, 1 FROM `signup_input_pairs` WHERE `signup_id` = NEW.`id` AND OLD.`custom_inputs` IS NOT NEW.`custom_inputs`
	ON CONFLICT DO UPDATE SET `count` = `count` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `signup_input_status_counts_before_delete` BEFORE DELETE ON `signups` WHEN OLD.`status` <> 'waiting' BEGIN
	INSERT INTO `signup_input_status_counts` (`waitlist_id`, `label`, `value`, `status`, `verified`, `referral`, `count`)
	SELECT OLD.`waitlist_id`, `label`, `value`, OLD.`status`, OLD.`verified`, OLD.`referral`, -1 FROM `signup_inputs` WHERE `signup_id` = OLD.`id` AND true
	ON CONFLICT DO UPDATE SET `count` = `count` - 1;
	DELETE FROM `signup_input_status_counts`
	WHERE (`waitlist_id`, `label`, `value`, `status`, `verified`, `referral`) IN (SELECT OLD.`waitlist_id`, `label`, `value`, OLD.`status`, OLD.`verified`, OLD.`referral` FROM `signup_inputs` WHERE `signup_id` = OLD.`id`)
		AND `count` <= 0;
END;
