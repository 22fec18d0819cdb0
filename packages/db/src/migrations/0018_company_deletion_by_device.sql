-- Deleting a company finds its data points and device log entries through their devices, not by reading
-- all of device_data and device_logs.
--
-- Since 0013 a company's deletion deleted its data points by company_id, and device_data has no index on
-- it (one more index on the hottest table would cost every uplink): each deletion read the table whole,
-- on a large installation for minutes, inside the deleting transaction; device_logs (0016: no foreign
-- keys either) would have needed the same. What it has to find is known by device:
-- * the points and entries of the company's own devices, which go with those devices (the devices cascade
--   and their delete triggers, by the device index);
-- * what the company recorded on devices it has since handed to another company: those devices are kept
--   here when they are reassigned, and the company's deletion reads them by device as well.
CREATE TABLE device_former_companies (
  company_id  bigint NOT NULL,  -- no foreign key: the company's deletion reads these rows, then deletes them
  device_id   bigint NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
  PRIMARY KEY (company_id, device_id)
);
CREATE INDEX device_former_companies_device_idx ON device_former_companies (device_id);
SELECT app_enable_tenant_rls('device_former_companies');

-- Reassignment (apps/api reassignDevice, or any UPDATE of devices.company_id): remember the company left.
-- A row trigger limited to company_id: the uplink path's updates of devices (positions) never fire it.
CREATE FUNCTION devices_remember_former_company() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT
  AS $fn$
BEGIN
  INSERT INTO device_former_companies (company_id, device_id) VALUES (OLD.company_id, OLD.id)
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER devices_remember_former_company AFTER UPDATE OF company_id ON devices
  FOR EACH ROW WHEN (OLD.company_id IS DISTINCT FROM NEW.company_id)
  EXECUTE FUNCTION devices_remember_former_company();

-- What installations recorded on devices reassigned before this migration: found once, by the scan the
-- deletions made every time until now.
INSERT INTO device_former_companies (company_id, device_id)
  SELECT DISTINCT d.company_id, d.device_id FROM device_data d JOIN devices v ON v.id = d.device_id
   WHERE d.company_id <> v.company_id
  ON CONFLICT DO NOTHING;
INSERT INTO device_former_companies (company_id, device_id)
  SELECT DISTINCT l.company_id, l.device_id FROM device_logs l JOIN devices v ON v.id = l.device_id
   WHERE l.company_id <> v.company_id
  ON CONFLICT DO NOTHING;

-- One trigger for both tables (in place of 0013's), so the former devices are read by both deletions
-- before they are forgotten.
DROP TRIGGER companies_delete_data ON companies;
DROP FUNCTION device_data_delete_of_companies();

CREATE FUNCTION delete_recorded_of_companies() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT
  AS $fn$
BEGIN
  DELETE FROM device_data d USING device_former_companies f, gone g
   WHERE f.company_id = g.id AND d.device_id = f.device_id AND d.company_id = g.id;
  DELETE FROM device_logs l USING device_former_companies f, gone g
   WHERE f.company_id = g.id AND l.device_id = f.device_id AND l.company_id = g.id;
  DELETE FROM device_former_companies f USING gone g WHERE f.company_id = g.id;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER companies_delete_recorded AFTER DELETE ON companies
  REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION delete_recorded_of_companies();
