-- LoRaWAN downlinks through The Things Stack v3. A TTS webhook given a "downlink API key" sends with
-- every message where the device's downlink queue is and the key that may push to it: the headers
-- X-Downlink-Push (https://<cluster>/api/v3/as/applications/{app}/webhooks/{webhook}/devices/{device}/down/push)
-- and X-Downlink-Apikey. Ingest keeps the latest of both per device here (written only when they change);
-- the notifier pushes the device's commands there. No setting is needed in the platform: the webhook that
-- brings a device's uplinks says where its downlinks go.
--
-- The key is kept as sent, because the notifier must present it; no API route returns it. The row belongs
-- to the device's company (composite key): reassigning the device deletes it (reassignDevice), since the
-- old owner's application and key must not travel with the device.
CREATE TABLE tts_downlink_routes (
  device_id  bigint PRIMARY KEY,
  company_id bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  push_url   text NOT NULL CHECK (push_url ~ '^https?://'),
  api_key    text NOT NULL CHECK (length(api_key) > 0),
  updated_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (device_id, company_id) REFERENCES devices (id, company_id) ON DELETE CASCADE
);

SELECT app_enable_tenant_rls('tts_downlink_routes');
