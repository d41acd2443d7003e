-- Fraud defence (lib/domain/fraud): what a waitlist does with a disposable address (`refuse`, `flag`
-- or `allow`), the flags that hold a signup for an admin's review, and two more referral states.
ALTER TABLE `join_settings` ADD `disposable` text DEFAULT 'flag' NOT NULL CONSTRAINT "join_settings_disposable_known" CHECK(`disposable` in ('refuse', 'flag', 'allow'));
--> statement-breakpoint
-- One row per signup and rule that flagged it: waiting for an admin (`pending`), then `approved` or
-- `discounted` at `decided_at`. It goes with the signup (an erasure leaves none).
CREATE TABLE `signup_flags` (
	`signup_id` integer NOT NULL,
	`waitlist_id` text NOT NULL,
	`reason` text NOT NULL,
	`decision` text DEFAULT 'pending' NOT NULL,
	`flagged_at` integer NOT NULL,
	`decided_at` integer,
	PRIMARY KEY(`signup_id`, `reason`),
	FOREIGN KEY (`signup_id`) REFERENCES `signups`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "signup_flags_reason_known" CHECK("signup_flags"."reason" in ('disposable', 'lookalike', 'burst', 'referral_limit')),
	CONSTRAINT "signup_flags_decision_known" CHECK("signup_flags"."decision" in ('pending', 'approved', 'discounted')),
	CONSTRAINT "signup_flags_decided_at_when_decided" CHECK(("signup_flags"."decision" = 'pending') = ("signup_flags"."decided_at" is null))
);
--> statement-breakpoint
-- The review view and the facet: a waitlist's flags by decision and reason, newest signups last.
CREATE INDEX `signup_flags_waitlist_decision_idx` ON `signup_flags` (`waitlist_id`,`decision`,`reason`,`signup_id`);
--> statement-breakpoint
-- The referrals table again, with two more states: `flagged` (held for review: it counts once an
-- admin approves it) and `discounted` (an admin said it does not count). Same columns, same indexes.
CREATE TABLE `referrals_new` (
	`signup_id` integer PRIMARY KEY NOT NULL,
	`referrer_id` integer NOT NULL,
	`waitlist_id` text NOT NULL,
	`state` text NOT NULL,
	`counted_at` integer,
	FOREIGN KEY (`signup_id`) REFERENCES `signups`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`referrer_id`) REFERENCES `signups`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "referrals_state_known" CHECK("state" in ('counted', 'unverified', 'lookalike', 'daily_limit', 'flagged', 'discounted')),
	CONSTRAINT "referrals_counted_at_when_counted" CHECK(("state" = 'counted') = ("counted_at" is not null))
);
--> statement-breakpoint
INSERT INTO `referrals_new` (`signup_id`, `referrer_id`, `waitlist_id`, `state`, `counted_at`) SELECT `signup_id`, `referrer_id`, `waitlist_id`, `state`, `counted_at` FROM `referrals`;
--> statement-breakpoint
DROP TABLE `referrals`;
--> statement-breakpoint
ALTER TABLE `referrals_new` RENAME TO `referrals`;
--> statement-breakpoint
CREATE INDEX `referrals_referrer_idx` ON `referrals` (`referrer_id`,`counted_at`);
--> statement-breakpoint
-- A waitlist's referrals by state, then referrer: the top referrers (counted) and the tally of the rest.
CREATE INDEX `referrals_waitlist_state_idx` ON `referrals` (`waitlist_id`,`state`,`referrer_id`);
