CREATE TABLE `app_secrets` (
	`name` text PRIMARY KEY NOT NULL,
	`value` blob NOT NULL
);
--> statement-breakpoint
CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY NOT NULL,
	`at` integer NOT NULL,
	`actor_key_id` text,
	`actor` text NOT NULL,
	`action` text NOT NULL,
	`target` text NOT NULL,
	`summary` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_log_at_idx` ON `audit_log` (`at`);--> statement-breakpoint
-- The key of auditHash (lib/domain/audit/log.ts): made here once per database, so a copy of the
-- audit log alone cannot be matched against a list of addresses.
INSERT INTO `app_secrets` (`name`, `value`) VALUES ('audit_hash_key', randomblob(32));
