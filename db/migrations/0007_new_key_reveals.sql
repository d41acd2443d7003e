CREATE TABLE `new_key_reveals` (
	`ticket_hash` blob PRIMARY KEY NOT NULL,
	`session_key_id` text NOT NULL,
	`sealed` blob NOT NULL,
	`expires_at` integer NOT NULL
);
