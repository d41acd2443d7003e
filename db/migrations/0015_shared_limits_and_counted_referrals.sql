-- Limits every process sees (lib/domain/limits/counter.ts): one fixed-window counter per key (joins per
-- address, per client and per waitlist; confirmation emails per address; used proof-of-work
-- solutions), kept until its window ends and then pruned through the index. Keys name people only
-- by a keyed hash, never by their address.
CREATE TABLE `rate_limits` (
	`key` text PRIMARY KEY NOT NULL,
	`window_end` integer NOT NULL,
	`count` integer NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `rate_limits_window_end_idx` ON `rate_limits` (`window_end`);
--> statement-breakpoint
-- Whether each referral counts for its referrer (lib/domain/joining/referrals.ts): `counted` (since
-- `counted_at`), or not, and why: `unverified` (until the referred signup confirms its address),
-- `lookalike` (the referrer's own address again, with a plus tag or dots) or `daily_limit`. One row
-- per signup that joined with a referral code; it goes with either signup.
CREATE TABLE `referrals` (
	`signup_id` integer PRIMARY KEY NOT NULL,
	`referrer_id` integer NOT NULL,
	`waitlist_id` text NOT NULL,
	`state` text NOT NULL,
	`counted_at` integer,
	FOREIGN KEY (`signup_id`) REFERENCES `signups`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`referrer_id`) REFERENCES `signups`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "referrals_state_known" CHECK("referrals"."state" in ('counted', 'unverified', 'lookalike', 'daily_limit')),
	CONSTRAINT "referrals_counted_at_when_counted" CHECK(("referrals"."state" = 'counted') = ("referrals"."counted_at" is not null))
);
--> statement-breakpoint
CREATE INDEX `referrals_referrer_idx` ON `referrals` (`referrer_id`,`counted_at`);
--> statement-breakpoint
-- A waitlist's referrals by state, then referrer: the top referrers (counted) and the tally of the rest.
CREATE INDEX `referrals_waitlist_state_idx` ON `referrals` (`waitlist_id`,`state`,`referrer_id`);
--> statement-breakpoint
-- The referrals made before: counted from when they joined, except an unconfirmed one on a list that
-- verifies addresses (it counts once confirmed). Look-alikes and the daily limit are not looked for
-- in the past.
INSERT INTO `referrals` (`signup_id`, `referrer_id`, `waitlist_id`, `state`, `counted_at`)
SELECT s.id, s.referred_by, s.waitlist_id,
	CASE WHEN coalesce(j.verification, 0) = 1 AND s.verified = 0 THEN 'unverified' ELSE 'counted' END,
	CASE WHEN coalesce(j.verification, 0) = 1 AND s.verified = 0 THEN NULL ELSE s.created_at END
FROM `signups` AS s LEFT JOIN `join_settings` AS j ON j.waitlist_id = s.waitlist_id
WHERE s.referred_by IS NOT NULL;
