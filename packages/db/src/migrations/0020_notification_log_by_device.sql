-- The device drawer's notification log (GET /core/devices/{id}/notifications): a device's delivery
-- attempts, newest first, within its company. Without this index that read walks the company's whole
-- log (notification_log_company_idx orders by time only), which grows with every notification sent;
-- with it a page costs the same on a log of any size. company_id leads, so a device that changed
-- company (its old company's rows keep its id, migration 0017) is read only where its reader is.
-- The id breaks ties of rows written in one statement (same created_at), as the route orders them.
CREATE INDEX notification_log_device_idx ON notification_log (company_id, device_id, created_at DESC, id DESC);
