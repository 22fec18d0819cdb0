-- A notify job that runs again (a retry, or a worker that died mid-job) reads which recipients its
-- earlier attempts already settled: notification_log rows with its idempotency key
-- (apps/notifier/src/load-action.ts). Without an index that lookup walks every log row of the company,
-- which grows with every notification sent; with it, a retry costs the same on a log of any size.
-- Partial: rows written without a key (none today) need no entry.
CREATE INDEX notification_log_idempotency_idx ON notification_log (idempotency_key)
  WHERE idempotency_key IS NOT NULL;
