-- The map's device list (positions, states and online flags, coloured by state) changes far less often
-- than the device list: a reporting fleet rewrites its latest values with every storage-writer batch, and
-- migration 0042 announces each of those, so the API rebuilt a 10,000-device map list (the slowest read
-- of a dashboard) about once a second for every viewer. These triggers announce on a second channel only
-- what a pin shows: a device added, edited (state, position, group) or removed, a latest-values row added
-- or removed, and a latest-values update that moves a device or turns it on- or offline. Payload: the
-- company id, as on 0042's channel; a notification goes out at COMMIT, identical ones of a transaction
-- fold into one.
-- 0042's function, told its channel by the trigger's argument (none: the device list's, as before).
CREATE OR REPLACE FUNCTION announce_device_list_change() RETURNS trigger
  LANGUAGE plpgsql
  AS $fn$
DECLARE
  company bigint;
BEGIN
  FOR company IN SELECT DISTINCT company_id FROM changed_rows LOOP
    PERFORM pg_notify(COALESCE(TG_ARGV[0], 'iot_device_list_changed'), company::text);
  END LOOP;
  RETURN NULL;
END
$fn$;

-- Per row, for the one statement that runs with every uplink: the WHEN clause is checked without calling
-- any function, so a batch of latest values that moves nobody costs no call and no notification.
CREATE FUNCTION announce_device_map_row_change() RETURNS trigger
  LANGUAGE plpgsql
  AS $fn$
BEGIN
  PERFORM pg_notify('iot_device_map_changed', NEW.company_id::text);
  IF OLD.company_id IS DISTINCT FROM NEW.company_id THEN
    PERFORM pg_notify('iot_device_map_changed', OLD.company_id::text);
  END IF;
  RETURN NULL;
END
$fn$;

CREATE TRIGGER device_current_map_update AFTER UPDATE ON device_current
  FOR EACH ROW
  WHEN (OLD.is_active IS DISTINCT FROM NEW.is_active
        OR OLD.latitude IS DISTINCT FROM NEW.latitude
        OR OLD.longitude IS DISTINCT FROM NEW.longitude
        OR OLD.company_id IS DISTINCT FROM NEW.company_id)
  EXECUTE FUNCTION announce_device_map_row_change();
CREATE TRIGGER device_current_map_insert AFTER INSERT ON device_current
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION announce_device_list_change('iot_device_map_changed');
CREATE TRIGGER device_current_map_delete AFTER DELETE ON device_current
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION announce_device_list_change('iot_device_map_changed');

CREATE TRIGGER devices_map_insert AFTER INSERT ON devices
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION announce_device_list_change('iot_device_map_changed');
CREATE TRIGGER devices_map_update_new AFTER UPDATE ON devices
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION announce_device_list_change('iot_device_map_changed');
CREATE TRIGGER devices_map_update_old AFTER UPDATE ON devices
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION announce_device_list_change('iot_device_map_changed');
CREATE TRIGGER devices_map_delete AFTER DELETE ON devices
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION announce_device_list_change('iot_device_map_changed');
