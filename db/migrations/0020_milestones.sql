-- Milestones (lib/domain/milestones): steps of counted referrals a waitlist's admin defines ("3: move
-- up 100 places", "10: Early access"). A milestone is known by its step; its label is unique in its
-- waitlist (any case: the `milestone` filter names it), `places` (0: none) moves a waiting signup up
-- when reached, `message` (one line, placeholders as the invitation's) is the email's and the page's.
CREATE TABLE `milestones` (
	`waitlist_id` text NOT NULL,
	`referrals` integer NOT NULL,
	`label` text NOT NULL,
	`places` integer DEFAULT 0 NOT NULL,
	`message` text DEFAULT '' NOT NULL,
	PRIMARY KEY(`waitlist_id`, `referrals`),
	FOREIGN KEY (`waitlist_id`) REFERENCES `waitlists`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "milestones_referrals_positive" CHECK("milestones"."referrals" > 0),
	CONSTRAINT "milestones_places_not_negative" CHECK("milestones"."places" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `milestones_label_idx` ON `milestones` (`waitlist_id`,lower("label"));
--> statement-breakpoint
-- Who reached which milestone: gone with the signup (an erasure) or with the milestone (the admin
-- removed it: the trigger below). Nothing here names a person but by the signup's id.
CREATE TABLE `signup_milestones` (
	`signup_id` integer NOT NULL,
	`waitlist_id` text NOT NULL,
	`referrals` integer NOT NULL,
	`reached_at` integer NOT NULL,
	PRIMARY KEY(`signup_id`, `referrals`),
	FOREIGN KEY (`signup_id`) REFERENCES `signups`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `signup_milestones_waitlist_idx` ON `signup_milestones` (`waitlist_id`,`referrals`,`signup_id`);
--> statement-breakpoint
CREATE TRIGGER `milestones_forget_reached` AFTER DELETE ON `milestones`
BEGIN
	DELETE FROM `signup_milestones` WHERE `waitlist_id` = OLD.`waitlist_id` AND `referrals` = OLD.`referrals`;
END;
