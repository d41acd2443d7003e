-- The email search index (signup_email_search, migration 0003) merges a level's segments once 16 of
-- them gather instead of 4, and all of a level at once only at 64 instead of 16. Every join writes the
-- few trigrams of its address as a segment of its own (SQLite's full-text index writes what it holds
-- at each statement that may need undoing), and merging every 4 segments kept the join thread busy for
-- seconds at a time. On the bench's 1M list, one worker: 16 clients joining without pause got 899–1,010
-- joins a second with a p99 of 78–80 ms, and launch day's 1,000 a second sent steadily a p99 of 629–786
-- ms; after, 942–1,070 a second with a p99 of 58–64 ms, and 47–73 ms at 1,000 a second, the longest
-- join 67–112 ms. Merging at 16 but all at once at 16 too gave a p99 of 29–35 ms without pause, but
-- held every join for up to 1.5 s now and then (a large level merged at once): 1.3–2.1 s at 1,000 a
-- second. A search reads at most 15 segments of a level instead of 3.
INSERT INTO `signup_email_search` (`signup_email_search`, `rank`) VALUES ('automerge', 16);
--> statement-breakpoint
INSERT INTO `signup_email_search` (`signup_email_search`, `rank`) VALUES ('crisismerge', 64);
