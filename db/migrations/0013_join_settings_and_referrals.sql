-- Joining (lib/domain/joining): each waitlist's join settings (no row: the defaults, joining closed),
-- each signup's referral code and the signup that referred it.
CREATE TABLE `join_settings` (
	`waitlist_id` text PRIMARY KEY NOT NULL,
	`joining` text DEFAULT 'closed' NOT NULL,
	`verification` integer DEFAULT false NOT NULL,
	`fields` text DEFAULT '[]' NOT NULL,
	`success_message` text DEFAULT '' NOT NULL,
	`embed_origins` text DEFAULT '[]' NOT NULL,
	`challenge` integer DEFAULT true NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`waitlist_id`) REFERENCES `waitlists`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "join_settings_joining_known" CHECK("join_settings"."joining" = 'open' or "join_settings"."joining" = 'closed'),
	CONSTRAINT "join_settings_fields_is_array" CHECK(json_type("join_settings"."fields") = 'array'),
	CONSTRAINT "join_settings_embed_origins_is_array" CHECK(json_type("join_settings"."embed_origins") = 'array')
);
--> statement-breakpoint
-- Both columns null on every existing row (no rewrite of the table): an imported signup gets its code
-- the first time one is asked for (lib/domain/joining/referral-code.ts).
ALTER TABLE `signups` ADD `referral_code` text;
--> statement-breakpoint
-- An erased referrer leaves its referred signups without a referrer (and keeps their `referral` flag).
ALTER TABLE `signups` ADD `referred_by` integer REFERENCES signups(id) ON DELETE SET NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX `signups_referral_code_unique` ON `signups` (`referral_code`) WHERE "signups"."referral_code" is not null;
--> statement-breakpoint
CREATE INDEX `signups_referred_by_idx` ON `signups` (`referred_by`,`created_at`) WHERE "signups"."referred_by" is not null;
--> statement-breakpoint
CREATE INDEX `signups_waitlist_referred_by_idx` ON `signups` (`waitlist_id`,`referred_by`) WHERE "signups"."referred_by" is not null;
