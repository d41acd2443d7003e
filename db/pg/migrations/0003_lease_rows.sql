-- The leases of the delivery sender and of the scheduler (SQLite's migrations 0011 and 0022 insert
-- them): takeSenderLease only updates its row, so without them nothing is ever fanned out, sent or
-- scheduled. The sender starts after the events already there, as SQLite's did when it was added.
INSERT INTO delivery_sender (name, last_event_id) SELECT 'sender', coalesce(max(id), 0) FROM events ON CONFLICT (name) DO NOTHING;
INSERT INTO delivery_sender (name, last_event_id) VALUES ('scheduler', 0) ON CONFLICT (name) DO NOTHING;
