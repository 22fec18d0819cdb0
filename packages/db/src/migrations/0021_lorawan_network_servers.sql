-- LoRaWAN downlinks through the company's network server. A LoRaWAN device (one with a DevEUI) hears no
-- MQTT topic of ours: its commands must be queued at the network server that serves it, which sends them
-- in the receive window after the device's next uplink. The notifier (apps/notifier downlinks) reads
-- here where that server's API is and with which key it may queue.
--
-- One network server per company. kind: 'chirpstack' (ChirpStack v4, gRPC DeviceService.Enqueue). The
-- API token is kept as entered, because the notifier must present it; the API never returns it
-- (write-only, like a password field), and only ROLE_ADMIN and ROLE_MAINUSER may set it.
CREATE TABLE network_servers (
  company_id  bigint PRIMARY KEY REFERENCES companies(id) ON DELETE CASCADE,
  kind        text NOT NULL CHECK (kind IN ('chirpstack')),
  -- http://host:port (plaintext HTTP/2) or https://host:port (TLS): the network server's gRPC API
  api_url     text NOT NULL CHECK (api_url ~ '^https?://'),
  api_token   text NOT NULL CHECK (length(api_token) > 0),
  updated_by  bigint REFERENCES users(id) ON DELETE SET NULL,
  updated_at  timestamptz NOT NULL DEFAULT now()
);

SELECT app_enable_tenant_rls('network_servers');

-- The network server's id of a queued downlink (ChirpStack's queue item id), to find it there; NULL where
-- none is given (MQTT; The Things Stack's push answers without one).
ALTER TABLE downlinks ADD COLUMN reference text;
