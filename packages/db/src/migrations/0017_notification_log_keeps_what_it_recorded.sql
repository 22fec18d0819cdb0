-- notification_log keeps the rule, action, alarm and device it was written for, as recorded: no foreign
-- keys to them any more, only to its company (deleting a company still deletes its log).
--
-- The notifier writes a row for every delivery attempt and recipient. Each row ran five foreign key
-- checks, a query per row and key that also locks the referenced row: 18 of the insert's 26 ms for 300
-- rows on PGlite (EXPLAIN ANALYZE, 2026-11-22), in an alarm storm a few per cent of the embedded
-- profile's database thread (tests/bench/README.md, rules). The four keys dropped here only set their
-- column to NULL when the rule, action, alarm or device was deleted:
-- * A log row is history: which rule's action reached whom, and when. Ids are never reused (bigserial),
--   so an id whose row is gone names nothing else, and a reader that joins finds nothing, as it found
--   NULL before. Nothing reads these columns but the notifier's own lookups by idempotency key.
-- * The keys cost at deletion too: none of alarm_id, rule_action_id and device_id is indexed, so deleting
--   a device scanned the whole log once for the device and once for each of its alarms.
-- * A rule deleted while its action was being delivered made the log insert fail after the send (the
--   key check), so the job failed and its retry found no action to deliver: the attempt went unlogged.
--   Now the row is written.
ALTER TABLE notification_log DROP CONSTRAINT IF EXISTS notification_log_rule_id_fkey;
ALTER TABLE notification_log DROP CONSTRAINT IF EXISTS notification_log_rule_action_id_fkey;
ALTER TABLE notification_log DROP CONSTRAINT IF EXISTS notification_log_alarm_id_fkey;
ALTER TABLE notification_log DROP CONSTRAINT IF EXISTS notification_log_device_id_fkey;
