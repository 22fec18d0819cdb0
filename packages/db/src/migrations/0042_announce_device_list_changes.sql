-- The device list (table and map) changes with every write to what it shows: devices, their groups and
-- their latest values (device_current, written by the storage writer, the rules worker, timers, seeds and
-- the API). The API keeps the list's answers in memory per company until the company's next change
-- (apps/api lib/answer-cache.ts, issue #29); these triggers announce every such change on one channel,
-- whoever makes it (payload: the company id), as migration 0009 does for ingest's device cache.
--
-- Per statement over its transition table, not per row: a storage writer batch of thousands of rows costs
-- one trigger call and one notification per company in it. PostgreSQL delivers a notification at COMMIT
-- and folds identical ones of a transaction into one, so a rolled back write announces nothing.
CREATE FUNCTION announce_device_list_change() RETURNS trigger
  LANGUAGE plpgsql
  AS $fn$
DECLARE
  company bigint;
BEGIN
  FOR company IN SELECT DISTINCT company_id FROM changed_rows LOOP
    PERFORM pg_notify('iot_device_list_changed', company::text);
  END LOOP;
  RETURN NULL;
END
$fn$;

-- A table may carry one transition table per trigger event: an UPDATE that moves a row to another company
-- (reassignment) is announced for both by its OLD and its NEW trigger.
CREATE TRIGGER device_current_list_insert AFTER INSERT ON device_current
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION announce_device_list_change();
CREATE TRIGGER device_current_list_update AFTER UPDATE ON device_current
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION announce_device_list_change();
CREATE TRIGGER device_current_list_delete AFTER DELETE ON device_current
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION announce_device_list_change();

CREATE TRIGGER devices_list_insert AFTER INSERT ON devices
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION announce_device_list_change();
CREATE TRIGGER devices_list_update_new AFTER UPDATE ON devices
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION announce_device_list_change();
CREATE TRIGGER devices_list_update_old AFTER UPDATE ON devices
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION announce_device_list_change();
CREATE TRIGGER devices_list_delete AFTER DELETE ON devices
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION announce_device_list_change();

-- A group's name shows in the list.
CREATE TRIGGER groups_list_update AFTER UPDATE ON groups
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION announce_device_list_change();
CREATE TRIGGER groups_list_delete AFTER DELETE ON groups
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION announce_device_list_change();
