-- Deleted data points invalidate their rolled-up chart buckets in one statement per deletion instead of
-- one call per point, and points deleted with their device or company skip it: those rollups go by their
-- own cascade (device_data_rollups references devices and companies).
--
-- Since 0013 a device's deletion deletes its points in one statement (devices_delete_data), and the row
-- trigger of 0009 then ran device_data_rollups_invalidate_row for every point older than 15 minutes:
-- about 28 us each on PostgreSQL, 1.1 s of a 1.4 s deletion of 39 devices with 1,000 points each
-- (auto_explain, 2026-11-22), and a device with a year of 10-minute data has 52,560. The work was useless
-- there: the device's rollups were deleted with it anyway.
--
-- The race with a rollup builder is handled as before: the same shared advisory lock per device (in
-- device order), taken before the buckets are deleted.
--
-- TimescaleDB's hypertables take no triggers with transition tables, so where device_data is one
-- (migration 0002) the row trigger of 0009 stays (untested here: no TimescaleDB on these machines).

CREATE FUNCTION device_data_rollups_invalidate_deleted() RETURNS trigger
  LANGUAGE plpgsql
  AS $fn$
BEGIN
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

DO $statement_trigger$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'timescaledb') THEN
    -- Nested, so this query is prepared only where its view exists.
    IF EXISTS (SELECT 1 FROM timescaledb_information.hypertables
                WHERE hypertable_schema = current_schema() AND hypertable_name = 'device_data') THEN
      RETURN;
    END IF;
  END IF;
  DROP TRIGGER device_data_rollups_delete ON device_data;
  CREATE TRIGGER device_data_rollups_delete AFTER DELETE ON device_data
    REFERENCING OLD TABLE AS gone
    FOR EACH STATEMENT EXECUTE FUNCTION device_data_rollups_invalidate_deleted();
END
$statement_trigger$;
