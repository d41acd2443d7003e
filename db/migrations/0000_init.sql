CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`prefix` text NOT NULL,
	`key_hash` text NOT NULL,
	`roles` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	`expires_at` integer,
	`revoked_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_key_hash_unique` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`api_key_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`api_key_id`) REFERENCES `api_keys`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_api_key_idx` ON `sessions` (`api_key_id`);--> statement-breakpoint
CREATE TABLE `signups` (
	`id` integer PRIMARY KEY NOT NULL,
	`waitlist_id` text NOT NULL,
	`email` text NOT NULL,
	`verified` integer DEFAULT false NOT NULL,
	`referral` integer DEFAULT false NOT NULL,
	`custom_inputs` text DEFAULT '[]' NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`waitlist_id`) REFERENCES `waitlists`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "signups_custom_inputs_is_array" CHECK(json_type("signups"."custom_inputs") = 'array')
);
--> statement-breakpoint
CREATE UNIQUE INDEX `signups_waitlist_email_unique` ON `signups` (`waitlist_id`,lower("email"));--> statement-breakpoint
CREATE INDEX `signups_waitlist_order_idx` ON `signups` (`waitlist_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `signups_waitlist_verified_order_idx` ON `signups` (`waitlist_id`,`verified`,`created_at`);--> statement-breakpoint
CREATE INDEX `signups_waitlist_referral_order_idx` ON `signups` (`waitlist_id`,`referral`,`created_at`);--> statement-breakpoint
CREATE INDEX `signups_waitlist_verified_referral_order_idx` ON `signups` (`waitlist_id`,`verified`,`referral`,`created_at`);--> statement-breakpoint
CREATE TABLE `waitlists` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`website` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `waitlists_created_at_idx` ON `waitlists` (`created_at`,`id`);