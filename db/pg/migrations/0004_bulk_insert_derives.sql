-- The bulk writer (lib/domain/signups/bulk-insert-pg.ts) derives what these two triggers would, as
-- SQLite's does with its insert triggers dropped: each new signup's input pairs go in with it, and the
-- counts are tallied in memory and written once at the end of the import. While it inserts, it sets
-- waitlist.bulk_insert to 'on' for its transaction, and the triggers leave its statements alone (a
-- 100,000-row import spent about half its time in them: 278 of 581 ms per 5,000-row statement).
-- Every other insert derives here as before.
CREATE OR REPLACE FUNCTION signups_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF current_setting('waitlist.bulk_insert', true) = 'on' THEN RETURN NULL; END IF;
	PERFORM signups_apply_changes(ARRAY(
		SELECT signup_change_of(1, n, true, true, true, false, true) FROM new_rows AS n
	));
	RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION signup_inputs_count_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF current_setting('waitlist.bulk_insert', true) = 'on' THEN RETURN NULL; END IF;
	INSERT INTO signup_input_counts AS t (waitlist_id, label, value, verified, referral, count)
	SELECT n.waitlist_id, n.label, n.value, n.verified, n.referral, count(*) FROM new_inputs AS n
	GROUP BY n.waitlist_id, n.label, n.value, n.verified, n.referral
	ON CONFLICT (waitlist_id, label, value, verified, referral) DO UPDATE SET count = t.count + excluded.count;
	RETURN NULL;
END $$;
