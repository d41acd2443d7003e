-- A waitlist's join page in its brand (lib/domain/branding): a headline, a description (a small
-- Markdown subset), an accent colour (#rrggbb, '' for the default) and whether its public
-- leaderboard of referrers is on.
ALTER TABLE `join_settings` ADD `headline` text DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE `join_settings` ADD `description` text DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE `join_settings` ADD `accent_color` text DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE `join_settings` ADD `leaderboard` integer DEFAULT false NOT NULL;
--> statement-breakpoint
-- The join page's logo, kept in the database (so a backup holds it) and served by the app: the bytes
-- and their type, sniffed from the bytes when uploaded (PNG, JPEG or WebP). One per waitlist.
CREATE TABLE `join_logos` (
	`waitlist_id` text PRIMARY KEY NOT NULL,
	`content_type` text NOT NULL,
	`bytes` blob NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`waitlist_id`) REFERENCES `waitlists`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "join_logos_type_known" CHECK("join_logos"."content_type" in ('image/png', 'image/jpeg', 'image/webp'))
);
