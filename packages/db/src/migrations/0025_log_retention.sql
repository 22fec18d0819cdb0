-- Log retention (LOG_RETENTION_DAYS): the rules worker's timer deletes device log and notification log
-- entries older than the retention, oldest first (purgeExpiredLogs). device_logs has had a BRIN index on
-- created_at since migration 0002; notification_log gets one here, so that a pass that finds nothing old
-- reads a few index pages instead of the whole log. BRIN, not a B-tree: both logs are appended in time
-- order, and a BRIN index costs next to nothing on the insert path the rules worker and the notifier run.
CREATE INDEX notification_log_created_brin ON notification_log USING brin (created_at);
