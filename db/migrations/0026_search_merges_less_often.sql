-- The email search index (signup_email_search, migration 0003) merges its segments once 16 of a level
-- gather instead of 4. Every join writes the few trigrams of its address as a segment of their own
-- (SQLite's full-text index writes what it holds at each statement that may need undoing), and with
-- merges every 4 segments the merging of ever larger levels kept the join thread busy for seconds at
-- a time: on the bench's 1M list, 16 clients joining on one worker got 827–951 joins a second with a
-- p99 of 80–87 ms, against 1,055–1,070 and 35–36 ms with merges at 16 (1,222 and 33 ms with no search
-- index at all). A search reads at most 15 segments of a level instead of 3.
INSERT INTO `signup_email_search` (`signup_email_search`, `rank`) VALUES ('automerge', 16);
