-- device_logs keeps no foreign keys, as device_data since 0013; deleting a device or a company still
-- deletes its log entries.
--
-- The rules worker writes a log entry for every firing, every suppression and every alarm raised or
-- cleared: three entries for a rule that fires and raises its alarm, and the next uplink clears it. Each
-- entry ran two foreign key checks (devices, companies), a query per row and key that also locks the
-- referenced row: 9 of the insert's 18 ms for 300 entries on PGlite (EXPLAIN ANALYZE, 2026-11-22), in an
-- alarm storm about a tenth of the database thread of the embedded profile (tests/bench/README.md, rules).
--
-- What the keys guaranteed, and what does it now (the same as for device_data, migration 0013):
-- * No entry for a device that does not exist: the one insert (packages/db insertDeviceLogRows, used by
--   the storage writer and the rules worker) joins devices, so an entry for an unknown device is left out.
-- * No entry outlives its device: that insert locks the devices it writes entries for (FOR KEY SHARE, the
--   lock the foreign key check took). A deletion at the same time either committed first (then the join
--   no longer finds the device) or waits for the writer's commit, and its trigger below then sees and
--   deletes the new entries.
-- * Deleting a device deletes its entries: the statement trigger below. Like the cascade it replaces, it
--   runs as the table owner (SECURITY DEFINER), so row-level security does not hide another company's
--   entries from a deletion made under withTenant. A company's own devices go by their cascade; what it
--   logged on devices since reassigned to another company (entries keep the company that owned the device
--   when they were written) is deleted by the company trigger of migration 0018.
ALTER TABLE device_logs DROP CONSTRAINT IF EXISTS device_logs_device_id_fkey;
ALTER TABLE device_logs DROP CONSTRAINT IF EXISTS device_logs_company_id_fkey;

CREATE FUNCTION device_logs_delete_of_devices() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT
  AS $fn$
BEGIN
  DELETE FROM device_logs l USING gone g WHERE l.device_id = g.id;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER devices_delete_logs AFTER DELETE ON devices
  REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION device_logs_delete_of_devices();
