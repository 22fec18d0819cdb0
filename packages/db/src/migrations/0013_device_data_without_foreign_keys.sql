-- device_data keeps no foreign keys; deleting a device or a company still deletes its data points.
--
-- Every inserted row ran two foreign key checks: a query per row and key (devices, companies) that also
-- locks the referenced row. On the storage writer's batches that was 5 to 7 of the insert's 13 to 15 us
-- per data point on PostgreSQL (apps/ingest/bench/writer-sql.bench.ts, 1,250 envelopes per write over
-- 2,000 devices), the largest single cost of an uplink in the database. Time-series stores commonly keep
-- their hot table free of foreign keys for this reason.
--
-- What the keys guaranteed, and what does it now:
-- * No point for a device that does not exist: the storage writer's and the rules worker's inserts join
--   devices, so a row for an unknown device is left out as before (the demo seed writes the points of
--   devices it created in the same transaction).
-- * No point outlives its device: the storage writer updates the status of a batch's devices before it
--   inserts their points, in the same transaction (packages/db writeIngestBatch), and the rules worker
--   locks the devices it writes points for (FOR KEY SHARE). A deletion running at the same time either
--   committed first (then the insert's join no longer finds the device) or waits for the writer's
--   commit, and its trigger below then sees and deletes the new points.
-- * Deleting a device or a company deletes their points: the statement triggers below (the company's
--   own devices go by their cascade; these catch the points the company recorded on devices since
--   reassigned to another company, which keep the company that owned the device when they were recorded).
--   Like the cascade they replace, they run as the table owner (SECURITY DEFINER), so row-level security
--   does not hide another company's points from a deletion made under withTenant.
ALTER TABLE device_data DROP CONSTRAINT IF EXISTS device_data_device_id_fkey;
ALTER TABLE device_data DROP CONSTRAINT IF EXISTS device_data_company_id_fkey;

CREATE FUNCTION device_data_delete_of_devices() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT
  AS $fn$
BEGIN
  DELETE FROM device_data d USING gone g WHERE d.device_id = g.id;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER devices_delete_data AFTER DELETE ON devices
  REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION device_data_delete_of_devices();

CREATE FUNCTION device_data_delete_of_companies() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT
  AS $fn$
BEGIN
  DELETE FROM device_data d USING gone g WHERE d.company_id = g.id;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER companies_delete_data AFTER DELETE ON companies
  REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION device_data_delete_of_companies();
