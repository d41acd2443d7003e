-- signup_counts and signup_input_status_counts WITHOUT ROWID, as the other counting tables are: the key
-- then holds the count, so a sum over a list's days reads one index range and no table row. A place in
-- line sums every earlier day of its list (2,920 rows of signup_counts on the bench's 1M list): 1.5 ms
-- a place as a rowid table (a table lookup per row), 0.3 ms without; a dashboard page shows 25 places.
-- The triggers on signups name these tables and stay as they are: the new table takes the old name,
-- and with legacy_alter_table the RENAME leaves those triggers unparsed (they name a table that is
-- missing between the DROP and the RENAME, which the default check refuses).
PRAGMA legacy_alter_table = ON;
--> statement-breakpoint
CREATE TABLE `__new_signup_counts` (
	`waitlist_id` text NOT NULL,
	`verified` integer NOT NULL,
	`referral` integer NOT NULL,
	`status` text NOT NULL,
	`day` integer NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`waitlist_id`, `verified`, `referral`, `status`, `day`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_signup_counts` (`waitlist_id`, `verified`, `referral`, `status`, `day`, `count`)
SELECT `waitlist_id`, `verified`, `referral`, `status`, `day`, `count` FROM `signup_counts`;
--> statement-breakpoint
DROP TABLE `signup_counts`;
--> statement-breakpoint
ALTER TABLE `__new_signup_counts` RENAME TO `signup_counts`;
--> statement-breakpoint
CREATE TABLE `__new_signup_input_status_counts` (
	`waitlist_id` text NOT NULL,
	`label` text NOT NULL,
	`value` text NOT NULL,
	`status` text NOT NULL,
	`verified` integer NOT NULL,
	`referral` integer NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`waitlist_id`, `label`, `value`, `status`, `verified`, `referral`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_signup_input_status_counts` (`waitlist_id`, `label`, `value`, `status`, `verified`, `referral`, `count`)
SELECT `waitlist_id`, `label`, `value`, `status`, `verified`, `referral`, `count` FROM `signup_input_status_counts`;
--> statement-breakpoint
DROP TABLE `signup_input_status_counts`;
--> statement-breakpoint
ALTER TABLE `__new_signup_input_status_counts` RENAME TO `signup_input_status_counts`;
--> statement-breakpoint
PRAGMA legacy_alter_table = OFF;
