-- Ids that an erasure never frees (issue 29): `signups` and `deliveries` get AUTOINCREMENT, so a
-- link, token, event or delivery that named an erased row never names another one. SQLite cannot add
-- AUTOINCREMENT to a table, so both are rebuilt with every id, column, constraint, index and trigger
-- as migration 0013 left them. This rewrites every signup: on a large list it is a long migration
-- (about 1 minute for 1,000,000 signups, /docs/production); run `npm run cli -- db migrate` before starting.
-- The view reads `signups`: renaming the new table under it checks every view, so it goes first.
DROP VIEW `signup_input_pairs`;
--> statement-breakpoint
CREATE TABLE `__new_signups` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`waitlist_id` text NOT NULL,
	`email` text NOT NULL,
	`verified` integer DEFAULT false NOT NULL,
	`referral` integer DEFAULT false NOT NULL,
	`custom_inputs` text DEFAULT '[]' NOT NULL,
	`created_at` integer NOT NULL, `status` text DEFAULT 'waiting' NOT NULL CHECK (`status` = 'waiting' OR `status` = 'invited' OR `status` = 'completed' OR `status` = 'rejected'), `status_changed_at` integer, `referral_code` text, `referred_by` integer REFERENCES signups(id) ON DELETE SET NULL,
	FOREIGN KEY (`waitlist_id`) REFERENCES `waitlists`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "signups_custom_inputs_is_array" CHECK(json_type("__new_signups"."custom_inputs") = 'array')
);
--> statement-breakpoint
-- In id order, so the rows are written in the order of the new table's b-tree. No trigger runs: the
-- derived tables and the search index (external content, keyed by these same ids) stay as they are.
INSERT INTO `__new_signups` (`id`, `waitlist_id`, `email`, `verified`, `referral`, `custom_inputs`, `created_at`, `status`, `status_changed_at`, `referral_code`, `referred_by`)
SELECT `id`, `waitlist_id`, `email`, `verified`, `referral`, `custom_inputs`, `created_at`, `status`, `status_changed_at`, `referral_code`, `referred_by` FROM `signups` ORDER BY `id`;
--> statement-breakpoint
DROP TABLE `signups`;
--> statement-breakpoint
ALTER TABLE `__new_signups` RENAME TO `signups`;
--> statement-breakpoint
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
CREATE UNIQUE INDEX `signups_waitlist_email_unique` ON `signups` (`waitlist_id`,lower("email"));
--> statement-breakpoint
CREATE INDEX `signups_waitlist_order_idx` ON `signups` (`waitlist_id`,`created_at`);
--> statement-breakpoint
CREATE INDEX `signups_changed_status_idx` ON `signups` (`waitlist_id`, `status`, `created_at`) WHERE `status` <> 'waiting';
--> statement-breakpoint
CREATE UNIQUE INDEX `signups_referral_code_unique` ON `signups` (`referral_code`) WHERE "signups"."referral_code" is not null;
--> statement-breakpoint
CREATE INDEX `signups_referred_by_idx` ON `signups` (`referred_by`,`created_at`) WHERE "signups"."referred_by" is not null;
--> statement-breakpoint
CREATE INDEX `signups_waitlist_referred_by_idx` ON `signups` (`waitlist_id`,`referred_by`) WHERE "signups"."referred_by" is not null;
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
--> statement-breakpoint
-- The next id is above every id ever given: the newest signup may already be erased, yet its id may
-- still be named by its events (signup.erased), deliveries or derived rows.
INSERT INTO `sqlite_sequence` (`name`, `seq`)
SELECT 'signups', 0 WHERE NOT EXISTS (SELECT 1 FROM `sqlite_sequence` WHERE `name` = 'signups');
--> statement-breakpoint
UPDATE `sqlite_sequence` SET `seq` = max(
	`seq`,
	coalesce((SELECT max(`id`) FROM `signups`), 0),
	coalesce((SELECT max(`signup_id`) FROM `events`), 0),
	coalesce((SELECT max(`signup_id`) FROM `deliveries`), 0),
	coalesce((SELECT max(`signup_id`) FROM `signup_inputs`), 0)
) WHERE `name` = 'signups';
--> statement-breakpoint
-- Deliveries go on erasure and with their events' retention, and their ids are shown (the delivery
-- log, `webhooks resend <id>`, the audit log's delivery.resend).
CREATE TABLE `__new_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`event_type` text NOT NULL,
	`waitlist_id` text NOT NULL,
	`signup_id` integer,
	`channel` text NOT NULL,
	`endpoint_id` text,
	`recipient` text,
	`subject` text,
	`body` text,
	`state` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer,
	`last_response` text,
	`last_error` text,
	`last_attempt_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`waitlist_id`) REFERENCES `waitlists`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`endpoint_id`) REFERENCES `webhook_endpoints`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "deliveries_state_known" CHECK("__new_deliveries"."state" = 'pending' or "__new_deliveries"."state" = 'delivering' or "__new_deliveries"."state" = 'succeeded' or "__new_deliveries"."state" = 'failed' or "__new_deliveries"."state" = 'not_sent'),
	CONSTRAINT "deliveries_target" CHECK(("__new_deliveries"."channel" = 'webhook' and "__new_deliveries"."endpoint_id" is not null) or ("__new_deliveries"."channel" = 'email' and "__new_deliveries"."endpoint_id" is null))
);
--> statement-breakpoint
INSERT INTO `__new_deliveries` (`id`, `event_id`, `event_type`, `waitlist_id`, `signup_id`, `channel`, `endpoint_id`, `recipient`, `subject`, `body`, `state`, `attempts`, `next_attempt_at`, `last_response`, `last_error`, `last_attempt_at`, `created_at`)
SELECT `id`, `event_id`, `event_type`, `waitlist_id`, `signup_id`, `channel`, `endpoint_id`, `recipient`, `subject`, `body`, `state`, `attempts`, `next_attempt_at`, `last_response`, `last_error`, `last_attempt_at`, `created_at` FROM `deliveries` ORDER BY `id`;
--> statement-breakpoint
DROP TABLE `deliveries`;
--> statement-breakpoint
ALTER TABLE `__new_deliveries` RENAME TO `deliveries`;
--> statement-breakpoint
CREATE INDEX `deliveries_due_idx` ON `deliveries` (`endpoint_id`,`next_attempt_at`) WHERE "deliveries"."next_attempt_at" is not null;
--> statement-breakpoint
CREATE INDEX `deliveries_event_idx` ON `deliveries` (`event_id`);
--> statement-breakpoint
CREATE INDEX `deliveries_waitlist_idx` ON `deliveries` (`waitlist_id`,`id`);
--> statement-breakpoint
CREATE INDEX `deliveries_endpoint_idx` ON `deliveries` (`endpoint_id`,`id`);
--> statement-breakpoint
CREATE INDEX `deliveries_signup_idx` ON `deliveries` (`signup_id`) WHERE "deliveries"."signup_id" is not null;
--> statement-breakpoint
INSERT INTO `sqlite_sequence` (`name`, `seq`)
SELECT 'deliveries', 0 WHERE NOT EXISTS (SELECT 1 FROM `sqlite_sequence` WHERE `name` = 'deliveries');
--> statement-breakpoint
UPDATE `sqlite_sequence` SET `seq` = max(
	`seq`,
	coalesce((SELECT max(`id`) FROM `deliveries`), 0),
	coalesce((SELECT max(cast(`target` AS integer)) FROM `audit_log` WHERE `action` = 'delivery.resend'), 0)
) WHERE `name` = 'deliveries';
--> statement-breakpoint
-- One body per event (issue 29): the webhook's body and the /v1 feed's item, written with the event
-- (lib/domain/event-snapshot.ts) instead of from the signup as it is when read. Existing events get
-- the body the feed showed until now: the signup as it is, its status as of the event.
ALTER TABLE `events` ADD `body` text;
--> statement-breakpoint
UPDATE `events` SET `body` = CASE
	WHEN `signup_id` IS NULL THEN json_object('type', `type`, 'timestamp', strftime('%Y-%m-%dT%H:%M:%fZ', `created_at` / 1000.0, 'unixepoch'), 'data', json_patch(json_object('waitlist_id', `waitlist_id`), `payload`))
	ELSE coalesce(
		(SELECT json_object('type', `events`.`type`, 'timestamp', strftime('%Y-%m-%dT%H:%M:%fZ', `events`.`created_at` / 1000.0, 'unixepoch'), 'data', json(iif(`events`.`payload` ->> '$.from' IS NULL,
			json_object('waitlist_id', `events`.`waitlist_id`, 'signup', json_object(
			'email', `s`.`email`,
			'verified', json(iif(`s`.`verified`, 'true', 'false')),
			'referral', json(iif(`s`.`referral`, 'true', 'false')),
			'custom_inputs', json(`s`.`custom_inputs`),
			'created_at', strftime('%Y-%m-%dT%H:%M:%fZ', `s`.`created_at` / 1000.0, 'unixepoch'),
			'id', cast(`s`.`id` AS text),
			'status', coalesce(`events`.`payload` ->> '$.to', `s`.`status`),
			'status_changed_at', iif(`events`.`payload` ->> '$.to' IS NULL, iif(`s`.`status_changed_at` IS NULL, NULL, strftime('%Y-%m-%dT%H:%M:%fZ', `s`.`status_changed_at` / 1000.0, 'unixepoch')), strftime('%Y-%m-%dT%H:%M:%fZ', `events`.`created_at` / 1000.0, 'unixepoch'))
		)),
			json_object('waitlist_id', `events`.`waitlist_id`, 'signup', json_object(
			'email', `s`.`email`,
			'verified', json(iif(`s`.`verified`, 'true', 'false')),
			'referral', json(iif(`s`.`referral`, 'true', 'false')),
			'custom_inputs', json(`s`.`custom_inputs`),
			'created_at', strftime('%Y-%m-%dT%H:%M:%fZ', `s`.`created_at` / 1000.0, 'unixepoch'),
			'id', cast(`s`.`id` AS text),
			'status', coalesce(`events`.`payload` ->> '$.to', `s`.`status`),
			'status_changed_at', iif(`events`.`payload` ->> '$.to' IS NULL, iif(`s`.`status_changed_at` IS NULL, NULL, strftime('%Y-%m-%dT%H:%M:%fZ', `s`.`status_changed_at` / 1000.0, 'unixepoch')), strftime('%Y-%m-%dT%H:%M:%fZ', `events`.`created_at` / 1000.0, 'unixepoch'))
		), 'previous_status', `events`.`payload` ->> '$.from'))))
		FROM `signups` AS `s` WHERE `s`.`id` = `events`.`signup_id` AND `s`.`waitlist_id` = `events`.`waitlist_id` AND `events`.`type` <> 'signup.erased'),
		json_object('type', `type`, 'timestamp', strftime('%Y-%m-%dT%H:%M:%fZ', `created_at` / 1000.0, 'unixepoch'), 'data', json_object('waitlist_id', `waitlist_id`, 'signup', json_object('id', cast(`signup_id` AS text))))
	)
END;
