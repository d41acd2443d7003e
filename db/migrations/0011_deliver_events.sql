-- Delivery of the outbox (lib/domain/deliveries, lib/delivery): one delivery per event × target (a
-- webhook endpoint, or a signup's address for an invitation email). next_attempt_at is set exactly
-- while a delivery waits (pending: when due; delivering: when its sender's lease ends), so the partial
-- index deliveries_due_idx finds what is due per target. A delivery's body may hold an address: an
-- erasure deletes the person's deliveries (by signup_id), a deleted waitlist or endpoint takes its own.
CREATE TABLE `deliveries` (
	`id` integer PRIMARY KEY NOT NULL,
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
	CONSTRAINT "deliveries_state_known" CHECK("deliveries"."state" = 'pending' or "deliveries"."state" = 'delivering' or "deliveries"."state" = 'succeeded' or "deliveries"."state" = 'failed' or "deliveries"."state" = 'not_sent'),
	CONSTRAINT "deliveries_target" CHECK(("deliveries"."channel" = 'webhook' and "deliveries"."endpoint_id" is not null) or ("deliveries"."channel" = 'email' and "deliveries"."endpoint_id" is null))
);
--> statement-breakpoint
CREATE INDEX `deliveries_due_idx` ON `deliveries` (`endpoint_id`,`next_attempt_at`) WHERE "deliveries"."next_attempt_at" is not null;--> statement-breakpoint
CREATE INDEX `deliveries_event_idx` ON `deliveries` (`event_id`);--> statement-breakpoint
CREATE INDEX `deliveries_waitlist_idx` ON `deliveries` (`waitlist_id`,`id`);--> statement-breakpoint
CREATE INDEX `deliveries_endpoint_idx` ON `deliveries` (`endpoint_id`,`id`);--> statement-breakpoint
CREATE INDEX `deliveries_signup_idx` ON `deliveries` (`signup_id`) WHERE "deliveries"."signup_id" is not null;--> statement-breakpoint
-- The one sender per database: whoever holds the lease sends; last_event_id is the newest event fanned out.
CREATE TABLE `delivery_sender` (
	`name` text PRIMARY KEY NOT NULL,
	`holder` text,
	`lease_until` integer,
	`last_event_id` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `invitation_emails` (
	`waitlist_id` text PRIMARY KEY NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`subject` text NOT NULL,
	`body` text NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`waitlist_id`) REFERENCES `waitlists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `webhook_endpoints` (
	`id` text PRIMARY KEY NOT NULL,
	`url` text NOT NULL,
	`waitlist_id` text,
	`event_types` text,
	`secret` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`disabled_reason` text,
	`failing_since` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`waitlist_id`) REFERENCES `waitlists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_endpoints_waitlist_idx` ON `webhook_endpoints` (`waitlist_id`);--> statement-breakpoint
CREATE INDEX `events_waitlist_idx` ON `events` (`waitlist_id`,`id`);--> statement-breakpoint
-- Events written before this migration are history, not news: the sender starts after the newest one.
INSERT INTO `delivery_sender` (`name`, `last_event_id`) SELECT 'sender', coalesce(max(`id`), 0) FROM `events`;
