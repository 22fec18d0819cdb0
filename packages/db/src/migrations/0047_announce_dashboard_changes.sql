-- The API keeps each company's dashboards answer (dashboards with their widgets) in memory: every console
-- asks for it on every load, and on the embedded profile it waited in the database's one worker behind the
-- widgets' own reads, which held back the whole grid (issue #30). These triggers announce every change to
-- a company's dashboards or widgets, whoever makes it, on iot_dashboards_changed with the company's id,
-- with 0044's function (per statement, delivered at COMMIT, identical notifications folded into one).
CREATE TRIGGER dashboards_announce_insert AFTER INSERT ON dashboards
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION announce_device_list_change('iot_dashboards_changed');
CREATE TRIGGER dashboards_announce_update_new AFTER UPDATE ON dashboards
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION announce_device_list_change('iot_dashboards_changed');
CREATE TRIGGER dashboards_announce_update_old AFTER UPDATE ON dashboards
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION announce_device_list_change('iot_dashboards_changed');
CREATE TRIGGER dashboards_announce_delete AFTER DELETE ON dashboards
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION announce_device_list_change('iot_dashboards_changed');

CREATE TRIGGER dashboard_widgets_announce_insert AFTER INSERT ON dashboard_widgets
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION announce_device_list_change('iot_dashboards_changed');
CREATE TRIGGER dashboard_widgets_announce_update_new AFTER UPDATE ON dashboard_widgets
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION announce_device_list_change('iot_dashboards_changed');
CREATE TRIGGER dashboard_widgets_announce_update_old AFTER UPDATE ON dashboard_widgets
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION announce_device_list_change('iot_dashboards_changed');
CREATE TRIGGER dashboard_widgets_announce_delete AFTER DELETE ON dashboard_widgets
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION announce_device_list_change('iot_dashboards_changed');
