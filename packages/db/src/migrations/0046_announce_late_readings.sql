-- The API keeps closed chart buckets in memory until their device is announced on iot_rollups_changed
-- (0045). 0045 announces deleted rollups only, but a late row (older than 15 minutes: a device uploading
-- what it buffered offline, an import) also changes a closed bucket that has no stored rollup: an hour
-- without rows, or one the builder has not reached, which the read computed from the raw rows. Both
-- invalidation functions of 0043 now announce the device of every late row they see, whether or not a
-- rollup was deleted. Live rows (younger than 15 minutes) never reach them, so ingest pays nothing more.
-- Identical notifications of a transaction are folded into one, delivered at COMMIT.
CREATE OR REPLACE FUNCTION device_rollups_invalidate_row(p_series integer, p_created_at timestamptz) RETURNS void
  LANGUAGE plpgsql
  AS $fn$
DECLARE
  s device_series%ROWTYPE;
BEGIN
  SELECT * INTO s FROM device_series WHERE id = p_series;
  IF NOT FOUND OR p_created_at < now() - interval '1 hour' - make_interval(days => (
       SELECT CASE WHEN c.data_retention_days IS NULL THEN (c.limits->>'max_data_retention_days')::int
                   ELSE least(c.data_retention_days, (c.limits->>'max_data_retention_days')::int) END
         FROM companies c WHERE c.id = s.company_id)) THEN
    RETURN;
  END IF;
  PERFORM pg_notify('iot_rollups_changed', s.device_id::text);
  -- 0x726f6c6c = 'roll'; the second key is the device id folded into an int4 (a collision only serialises).
  PERFORM pg_advisory_xact_lock_shared(1919904876, (s.device_id % 2147483647)::int);
  DELETE FROM device_rollups
   WHERE series = p_series
     AND ((hours = 1 AND hour = date_bin(interval '1 hour', p_created_at, '2000-01-01T00:00:00Z'))
          OR (hours = 6 AND hour = date_bin(interval '6 hours', p_created_at, '2000-01-01T00:00:00Z')));
END
$fn$;

CREATE OR REPLACE FUNCTION device_rollups_invalidate_deleted() RETURNS trigger
  LANGUAGE plpgsql
  AS $fn$
BEGIN
  IF current_setting('iot.retention_delete', true) = 'on' THEN
    RETURN NULL;
  END IF;
  PERFORM pg_advisory_xact_lock_shared(1919904876, (x.device_id % 2147483647)::int),
          pg_notify('iot_rollups_changed', x.device_id::text)
     FROM (SELECT DISTINCT s.device_id FROM gone g JOIN device_series s ON s.id = g.series
            WHERE g.created_at < now() - interval '15 minutes' ORDER BY 1) x;
  DELETE FROM device_rollups r
   USING (SELECT DISTINCT g.series, w.hours,
                 date_bin(make_interval(hours => w.hours), g.created_at, '2000-01-01T00:00:00Z') AS hour
            FROM gone g CROSS JOIN (VALUES (1), (6)) AS w(hours)
           WHERE g.created_at < now() - interval '15 minutes') x
   WHERE r.series = x.series AND r.hours = x.hours AND r.hour = x.hour;
  RETURN NULL;
END
$fn$;
