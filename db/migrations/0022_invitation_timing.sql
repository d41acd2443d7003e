-- Invitations that expire and remind (lib/domain/invitations/expire.ts, remind.ts) and paced
-- invitations (lib/domain/invitations/schedules/): all run by the scheduler (lib/domain/scheduler).
-- Per waitlist: what an invitation not redeemed in time becomes (`requeue`: waiting at the front of
-- the line; `reject`), and the reminder email, sent `reminder_days_before` days before the expiry
-- (null: none), with its own template.
ALTER TABLE `invitation_emails` ADD `on_invite_expiry` text DEFAULT 'requeue' NOT NULL CONSTRAINT "invitation_emails_on_invite_expiry_known" CHECK("on_invite_expiry" IN ('requeue', 'reject'));
--> statement-breakpoint
ALTER TABLE `invitation_emails` ADD `reminder_days_before` integer;
--> statement-breakpoint
ALTER TABLE `invitation_emails` ADD `reminder_subject` text DEFAULT 'Your invitation to {{waitlist.name}} expires soon' NOT NULL;
--> statement-breakpoint
ALTER TABLE `invitation_emails` ADD `reminder_body` text DEFAULT 'Hello,

You were invited to {{waitlist.name}} and have not accepted yet: your invitation expires soon.

{{invite.url}}
' NOT NULL;
--> statement-breakpoint
-- The invited signups in the order their invitations expire: the scheduler's expiry and reminder
-- scans read a waitlist's due ones from the front of this index, never the whole list.
CREATE INDEX `signups_invited_at_idx` ON `signups` (`waitlist_id`,`status_changed_at`) WHERE "signups"."status" = 'invited';
--> statement-breakpoint
-- Which invitation (by its time, the signup's status_changed_at) got its reminder: one per
-- invitation; a re-invite (a new time) is reminded again. Gone with the signup.
CREATE TABLE `invitation_reminders` (
	`signup_id` integer PRIMARY KEY NOT NULL,
	`invited_at` integer NOT NULL,
	`sent_at` integer NOT NULL,
	FOREIGN KEY (`signup_id`) REFERENCES `signups`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- The scheduler's lease, beside the delivery sender's: one process at a time does the due work.
INSERT INTO `delivery_sender` (`name`, `last_event_id`) VALUES ('scheduler', 0);
--> statement-breakpoint
-- Paced invitations: "on these weekdays at this local time in this time zone, invite the next
-- `batch` in line of this filter" (the filter as /v1's query string, "verified=true&input.Role=Engineer").
-- Optional guard: pause when fewer than `guard_percent`% of the invitations of the last `guard_days`
-- days were redeemed.
CREATE TABLE `invitation_schedules` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`waitlist_id` text NOT NULL,
	`weekdays` integer NOT NULL,
	`time_of_day` text NOT NULL,
	`time_zone` text NOT NULL,
	`batch` integer NOT NULL,
	`filter` text DEFAULT '' NOT NULL,
	`paused` integer DEFAULT false NOT NULL,
	`paused_reason` text,
	`guard_percent` integer,
	`guard_days` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`waitlist_id`) REFERENCES `waitlists`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "invitation_schedules_weekdays_known" CHECK("weekdays" > 0 AND "weekdays" < 128),
	CONSTRAINT "invitation_schedules_batch_positive" CHECK("batch" > 0)
);
--> statement-breakpoint
CREATE INDEX `invitation_schedules_waitlist_idx` ON `invitation_schedules` (`waitlist_id`);
--> statement-breakpoint
-- Each slot a schedule ran for, claimed in the transaction of its run: the primary key makes a slot
-- run exactly once, whichever process gets there first.
CREATE TABLE `invitation_schedule_runs` (
	`schedule_id` integer NOT NULL,
	`slot` integer NOT NULL,
	`ran_at` integer NOT NULL,
	`invited` integer NOT NULL,
	PRIMARY KEY(`schedule_id`, `slot`),
	FOREIGN KEY (`schedule_id`) REFERENCES `invitation_schedules`(`id`) ON UPDATE no action ON DELETE cascade
);
