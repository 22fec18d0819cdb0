-- Device data retention per company (issue #29): raw points older than data_retention_days are deleted by
-- the rules worker's housekeeping (purgeExpiredDeviceData), the chart rollups older than
-- rollup_retention_days as well; NULL keeps them for ever (the default). The super admin may cap the raw
-- retention per client (limits key max_data_retention_days, migration 0033); the smaller of the two holds.
-- At least 31 days: the widest chart bucket is 30 days, so every bucket that straddles the raw cutoff has
-- closed, and been rolled up from the kept hours, before its raw rows go. Rollups are kept at least as
-- long as raw points (checked by the API), so a year chart stays complete after raw data ages out.
ALTER TABLE companies
  ADD COLUMN data_retention_days integer CHECK (data_retention_days BETWEEN 31 AND 36500),
  ADD COLUMN rollup_retention_days integer CHECK (rollup_retention_days BETWEEN 31 AND 36500);

-- A retention delete first stores the rollups of what it deletes; the invalidation triggers (0009, 0019)
-- would then delete those very buckets again. The purge sets iot.retention_delete for its transaction
-- only (set_config(..., true)), and the triggers leave the rollups alone while it is on.
CREATE OR REPLACE FUNCTION device_data_rollups_invalidate() RETURNS trigger
  LANGUAGE plpgsql
  AS $fn$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('iot.retention_delete', true) = 'on' THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM device_data_rollups_invalidate_row(NEW.device_id, NEW.company_id, NEW.created_at, NEW.data);
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM device_data_rollups_invalidate_row(OLD.device_id, OLD.company_id, OLD.created_at, OLD.data);
  END IF;
  RETURN NULL;
END
$fn$;

CREATE OR REPLACE FUNCTION device_data_rollups_invalidate_deleted() RETURNS trigger
  LANGUAGE plpgsql
  AS $fn$
BEGIN
  IF current_setting('iot.retention_delete', true) = 'on' THEN
    RETURN NULL;
  END IF;
  PERFORM pg_advisory_xact_lock_shared(1919904876, (x.device_id % 2147483647)::int)
     FROM (SELECT DISTINCT g.device_id FROM gone g
            WHERE g.created_at < now() - interval '15 minutes'
              AND EXISTS (SELECT 1 FROM devices d WHERE d.id = g.device_id)
            ORDER BY 1) x;
  DELETE FROM device_data_rollups r
   USING (SELECT DISTINCT g.device_id, g.company_id, k.field, w.seconds,
                 date_bin(make_interval(secs => w.seconds), g.created_at, '2000-01-01T00:00:00Z') AS bucket
            FROM gone g
            CROSS JOIN unnest(ARRAY[3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800, 2592000]) AS w(seconds)
            CROSS JOIN LATERAL (SELECT jsonb_object_keys(g.data) UNION ALL SELECT '') AS k(field)
           WHERE g.created_at < now() - interval '15 minutes'
             AND EXISTS (SELECT 1 FROM devices d WHERE d.id = g.device_id)
             AND EXISTS (SELECT 1 FROM companies c WHERE c.id = g.company_id)) x
   WHERE r.device_id = x.device_id AND r.company_id = x.company_id AND r.field = x.field
     AND r.bucket_seconds = x.seconds AND r.bucket = x.bucket;
  RETURN NULL;
END
$fn$;


-- A late row older than its company's retention (a device's buffer sent weeks later) would invalidate
-- buckets whose raw rows are gone, and the next read would rebuild them from the late row alone. Such a row
-- is deleted by the next purge anyway; its buckets stay as they were. The hour of slack covers the purge's
-- cutoff, which is the hour start before now() - retention.
CREATE OR REPLACE FUNCTION device_data_rollups_invalidate_row(p_device_id bigint, p_company_id bigint,
                                                              p_created_at timestamptz, p_data jsonb)
  RETURNS void
  LANGUAGE plpgsql
  AS $fn$
BEGIN
  IF p_created_at < now() - interval '1 hour' - make_interval(days => (
       SELECT CASE WHEN c.data_retention_days IS NULL THEN (c.limits->>'max_data_retention_days')::int
                   ELSE least(c.data_retention_days, (c.limits->>'max_data_retention_days')::int) END
         FROM companies c WHERE c.id = p_company_id)) THEN
    RETURN;
  END IF;
  -- 0x726f6c6c = 'roll'; the second key is the device id folded into an int4 (a collision only serialises).
  PERFORM pg_advisory_xact_lock_shared(1919904876, (p_device_id % 2147483647)::int);
  DELETE FROM device_data_rollups r
   USING unnest(ARRAY[3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800, 2592000]) AS w(seconds)
   WHERE r.device_id = p_device_id
     AND r.company_id = p_company_id
     AND r.field = ANY (array_append(ARRAY(SELECT jsonb_object_keys(p_data)), ''))
     AND r.bucket_seconds = w.seconds
     AND r.bucket = date_bin(make_interval(secs => w.seconds), p_created_at, '2000-01-01T00:00:00Z');
END
$fn$;
