-- The API keeps the closed buckets of chart reads in memory (ClosedBucketCache in
-- repositories/device-data-rollups.ts): a year chart reloaded by a dashboard reads only its newest buckets
-- and the raw edges again (issue #30). A closed bucket changes only when a stored rollup of its series is
-- deleted: a late row's invalidation (0043), a deletion of raw rows, rollup retention. This trigger
-- announces every such deletion, whoever makes it, with the device's id, so the API drops that device's
-- buckets only. A series deleted with its device or company is gone before this runs, and so is the
-- device every later read checks first. As 0042: per statement, delivered at COMMIT, identical
-- notifications of a transaction folded into one.
CREATE FUNCTION announce_rollups_deleted() RETURNS trigger
  LANGUAGE plpgsql
  AS $fn$
DECLARE
  device bigint;
BEGIN
  FOR device IN SELECT DISTINCT s.device_id FROM (SELECT DISTINCT series FROM gone) g
                  JOIN device_series s ON s.id = g.series LOOP
    PERFORM pg_notify('iot_rollups_changed', device::text);
  END LOOP;
  RETURN NULL;
END
$fn$;

CREATE TRIGGER device_rollups_announce_delete AFTER DELETE ON device_rollups
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION announce_rollups_deleted();
-- Rollups are stored once and never updated (ON CONFLICT DO NOTHING); should one be, it is announced too.
CREATE TRIGGER device_rollups_announce_update AFTER UPDATE ON device_rollups
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION announce_rollups_deleted();
