-- An email that answers no event: "you are already on the list: here is your page"
-- (lib/domain/verification/already-on-list.ts), sent when someone types an address the list already
-- has. Such a delivery has no event_id; everything else about deliveries stays as it was. SQLite
-- cannot drop a NOT NULL in place: the table is rebuilt with its rows, ids, indexes and constraints,
-- and AUTOINCREMENT with the sequence it had (0014).
CREATE TABLE `__new_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer,
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
	CONSTRAINT "deliveries_state_known" CHECK("state" = 'pending' or "state" = 'delivering' or "state" = 'succeeded' or "state" = 'failed' or "state" = 'not_sent'),
	CONSTRAINT "deliveries_target" CHECK(("channel" = 'webhook' and "endpoint_id" is not null) or ("channel" = 'email' and "endpoint_id" is null)),
	CONSTRAINT "deliveries_event_or_email" CHECK("event_id" is not null or "channel" = 'email')
);
--> statement-breakpoint
INSERT INTO `__new_deliveries` (`id`, `event_id`, `event_type`, `waitlist_id`, `signup_id`, `channel`, `endpoint_id`, `recipient`, `subject`, `body`, `state`, `attempts`, `next_attempt_at`, `last_response`, `last_error`, `last_attempt_at`, `created_at`)
SELECT `id`, `event_id`, `event_type`, `waitlist_id`, `signup_id`, `channel`, `endpoint_id`, `recipient`, `subject`, `body`, `state`, `attempts`, `next_attempt_at`, `last_response`, `last_error`, `last_attempt_at`, `created_at` FROM `deliveries`;
--> statement-breakpoint
-- Ids stay never reused (0014): the new table's sequence continues from the old one's, not from max(id).
INSERT INTO `sqlite_sequence` (`name`, `seq`) SELECT '__new_deliveries', 0 WHERE NOT EXISTS (SELECT 1 FROM `sqlite_sequence` WHERE `name` = '__new_deliveries');
--> statement-breakpoint
UPDATE `sqlite_sequence` SET `seq` = max(`seq`, coalesce((SELECT `seq` FROM `sqlite_sequence` WHERE `name` = 'deliveries'), 0)) WHERE `name` = '__new_deliveries';
--> statement-breakpoint
DROP TABLE `deliveries`;
--> statement-breakpoint
ALTER TABLE `__new_deliveries` RENAME TO `deliveries`;
--> statement-breakpoint
CREATE INDEX `deliveries_due_idx` ON `deliveries` (`endpoint_id`,`next_attempt_at`) WHERE "deliveries"."next_attempt_at" is not null;--> statement-breakpoint
CREATE INDEX `deliveries_event_idx` ON `deliveries` (`event_id`);--> statement-breakpoint
CREATE INDEX `deliveries_waitlist_idx` ON `deliveries` (`waitlist_id`,`id`);--> statement-breakpoint
CREATE INDEX `deliveries_endpoint_idx` ON `deliveries` (`endpoint_id`,`id`);--> statement-breakpoint
CREATE INDEX `deliveries_signup_idx` ON `deliveries` (`signup_id`) WHERE "deliveries"."signup_id" is not null;
