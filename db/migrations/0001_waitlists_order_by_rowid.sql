DROP INDEX `waitlists_created_at_idx`;--> statement-breakpoint
CREATE INDEX `waitlists_created_at_idx` ON `waitlists` (`created_at`);