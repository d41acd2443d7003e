-- rate_limits holds the app's limits (requests per API key, failures per address, dashboard requests
-- and export slots per session, the import lock, joins per address, used proofs of work): with several
-- app servers on one database, /v1 and the dashboard write one of its rows per request. UNLOGGED: those
-- writes make no WAL, so a request never waits for a WAL flush or a synchronous standby. A crash or a
-- failover empties the table: every limit starts afresh, a held lease is free, and a proof of work
-- already used could be used once more before its challenge expires (10 minutes), which is acceptable for
-- abuse limits (lib/domain/limits/shared.ts).
ALTER TABLE rate_limits SET UNLOGGED;
