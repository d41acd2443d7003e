-- The email search index (signup_email_search, migration 0003) merges its segments once 16 of a level
-- gather instead of 4, and all of a level at once only at 64 instead of 16. Every join writes the few
-- trigrams of its address as a segment of its own (SQLite's full-text index writes what it holds at
-- each statement that may need undoing), and with merges every 4 segments the merging of ever larger
-- levels kept the join thread busy for seconds at a time: on the bench's 1M list, 16 clients joining
-- on one worker got 827–951 joins a second with a p99 of 80–87 ms (1,222 and 33 ms with no search
-- index at all). The server's join thread merges in its idle moments instead
-- (lib/domain/signups/search-merge.ts); these merges are what is left when it has none.
INSERT INTO `signup_email_search` (`signup_email_search`, `rank`) VALUES ('automerge', 16);
--> statement-breakpoint
INSERT INTO `signup_email_search` (`signup_email_search`, `rank`) VALUES ('crisismerge', 64);
