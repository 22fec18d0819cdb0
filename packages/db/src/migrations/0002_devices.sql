-- Devices and what they produce: time series, latest values, logs, downlinks; plus groups, codecs and the
-- per-company tokens of the LoRaWAN network server webhooks.
--
-- Tenancy: every tenant-owned row carries company_id. A child that points at another tenant-owned row
-- does it through a composite foreign key (x_id, company_id) -> x (id, company_id), so a row can never
-- point at another company's device or group, whatever the application does. Reassigning a device to
-- another company therefore has to deal with its configuration rows (rules, virtual fields, checks,
-- current values) explicitly; the update fails otherwise. Measured data and logs reference the device
-- by id only and keep the company that owned the device when they were recorded: history is not handed
-- over with the device.

CREATE TABLE groups (
  id          bigserial PRIMARY KEY,
  company_id  bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  name        text NOT NULL,
  description text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (id, company_id)
);
CREATE INDEX groups_company_idx ON groups (company_id, name);

-- User payload codecs (JavaScript run in the QuickJS sandbox), per company.
CREATE TABLE codecs (
  id          bigserial PRIMARY KEY,
  company_id  bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  name        text NOT NULL,
  language    text NOT NULL DEFAULT 'javascript' CHECK (language IN ('javascript')),
  script      text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (id, company_id)
);
CREATE INDEX codecs_company_idx ON codecs (company_id);

CREATE TABLE devices (
  id                  bigserial PRIMARY KEY,
  company_id          bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  name                text NOT NULL,
  description         text,
  comment             text,
  -- nbiot_button, srd_button, srd_gateway, nbiot_soil_sensor, ...; open list, drivers add kinds
  device_type         text,
  driver_id           text,                       -- key of the decoder driver (GET /core/drivers)
  codec_id            bigint,
  -- Identifiers the ingestion path resolves an uplink by; each is unique across the platform because an
  -- uplink names the device before the company is known.
  serial_number       text,
  uuid                uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  dev_eui             text CHECK (dev_eui ~ '^[0-9a-f]{16}$'),  -- LoRaWAN DevEUI, lower-case hex
  credentials_hash    text,                       -- sha-256 of the device's own access token; never the token
  location            text,
  latitude            double precision CHECK (latitude BETWEEN -90 AND 90),
  longitude           double precision CHECK (longitude BETWEEN -180 AND 180),
  external_accessible boolean NOT NULL DEFAULT false,
  is_active           boolean NOT NULL DEFAULT false, -- false: shown as offline
  state               text NOT NULL DEFAULT 'ok'
                      CHECK (state IN ('ok', 'maintenance', 'lost', 'broken', 'disposed')),
  target_server       text CHECK (target_server IN ('develop', 'staging', 'production')),
  battery_level       double precision,           -- percent; NULL: no value, shown as "off"
  battery_voltage     double precision,
  mains_powered       boolean NOT NULL DEFAULT false, -- battery display shows "power"
  last_online_at      timestamptz,
  signal_strength     smallint,                   -- scale 1 to 5
  rssi                integer,
  snr                 double precision,
  group_id            bigint,
  mobile_data_volume  bigint,                     -- bytes used in the current billing period (NB-IoT SIM)
  sensor_type         integer,                    -- PARKINGSENSOR 8, AI_PARKINGSENSOR 1024
  -- {data_fields: [{data_field, label, sort}]}; sort 1 to 99999 is validated by the API (spec 5)
  metadata            jsonb NOT NULL DEFAULT '{}',
  device_details      jsonb NOT NULL DEFAULT '{}', -- {data_fields: [...]}: fields the device reports
  device_info         jsonb NOT NULL DEFAULT '{}', -- {data_fields: [...]}: static information fields
  field_id            bigint,                     -- farming field; foreign key added with farming tables
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  UNIQUE (id, company_id),
  FOREIGN KEY (group_id, company_id) REFERENCES groups (id, company_id) ON DELETE SET NULL (group_id),
  FOREIGN KEY (codec_id, company_id) REFERENCES codecs (id, company_id) ON DELETE SET NULL (codec_id)
);
CREATE UNIQUE INDEX devices_serial_number_key ON devices (serial_number) WHERE serial_number IS NOT NULL;
CREATE UNIQUE INDEX devices_dev_eui_key ON devices (dev_eui) WHERE dev_eui IS NOT NULL;
CREATE UNIQUE INDEX devices_credentials_hash_key ON devices (credentials_hash) WHERE credentials_hash IS NOT NULL;
CREATE INDEX devices_company_name_idx ON devices (company_id, name);
CREATE INDEX devices_company_group_idx ON devices (company_id, group_id) WHERE group_id IS NOT NULL;
CREATE INDEX devices_company_field_idx ON devices (company_id, field_id) WHERE field_id IS NOT NULL;
CREATE INDEX devices_company_last_online_idx ON devices (company_id, last_online_at);

-- Measured data, one row per uplink (or per stored virtual value). The hottest table: rows are small and
-- carry no surrogate id.
CREATE TABLE device_data (
  device_id   bigint NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
  company_id  bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL,               -- time of measurement (the uplink's own time when it has one)
  data        jsonb NOT NULL,                     -- {data_field: value}
  latitude    double precision,                   -- geo [latitude, longitude] of this point, if any
  longitude   double precision,
  metalabel   text,
  fcnt        bigint,                             -- LoRaWAN frame counter, kept for diagnosis
  -- Identifies one uplink at its source (LNS deduplication id, "<fcnt>", MQTT message id). The same uplink
  -- delivered twice (two gateways, a webhook retry) carries the same device, time and message id, and the
  -- unique index below turns the second insert into a no-op:
  --   INSERT ... ON CONFLICT (device_id, created_at, message_id) DO NOTHING
  -- Rows without a message id are never treated as duplicates (NULLs are distinct).
  message_id  text
);
-- One index serves both the per-device time range queries (charts, last record) and deduplication.
-- It contains created_at, which a unique index on a TimescaleDB hypertable must.
CREATE UNIQUE INDEX device_data_device_time_key ON device_data (device_id, created_at DESC, message_id);

-- Storage layout. With the timescaledb extension installed and preloaded, device_data becomes a hypertable
-- (7-day chunks) whose chunks are compressed after 7 days, segmented by device so a compressed chunk still
-- answers per-device queries; TimescaleDB wants every column of a unique index on a compressed hypertable
-- among the segmentby or orderby columns, hence message_id at the end of the order. Without the extension
-- (PGlite, plain PostgreSQL) device_data stays a plain table and a BRIN index on created_at serves time range
-- scans across devices (retention, platform statistics) at a tiny fraction of a btree's size and insert cost;
-- per-device reads use the unique btree above either way. Timescale functions are called through EXECUTE so
-- the block compiles where they do not exist.
DO $timescale$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'timescaledb')
     AND current_setting('shared_preload_libraries', true) LIKE '%timescaledb%' THEN
    EXECUTE 'CREATE EXTENSION IF NOT EXISTS timescaledb';
    EXECUTE $sql$SELECT create_hypertable('device_data', 'created_at', chunk_time_interval => INTERVAL '7 days')$sql$;
    EXECUTE $sql$ALTER TABLE device_data SET (
      timescaledb.compress,
      timescaledb.compress_segmentby = 'device_id, company_id',
      timescaledb.compress_orderby = 'created_at DESC, message_id'
    )$sql$;
    EXECUTE $sql$SELECT add_compression_policy('device_data', INTERVAL '7 days')$sql$;
  ELSE
    CREATE INDEX device_data_created_brin ON device_data USING brin (created_at);
  END IF;
END
$timescale$;

-- Latest value of every data field per device, coalesced per ingestion batch: what the device table,
-- the map and GET /core/data/{id}/current read without touching device_data.
CREATE TABLE device_current (
  device_id   bigint PRIMARY KEY,
  company_id  bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  data        jsonb NOT NULL DEFAULT '{}',        -- {data_field: latest value}
  field_times jsonb NOT NULL DEFAULT '{}',        -- {data_field: ISO time of that value} (stale after 8 h)
  latitude    double precision,
  longitude   double precision,
  updated_at  timestamptz NOT NULL,               -- time of the newest value
  FOREIGN KEY (device_id, company_id) REFERENCES devices (id, company_id) ON DELETE CASCADE
);
CREATE INDEX device_current_company_idx ON device_current (company_id);

-- Device log: decode failures (the uplink kept, never dropped), sensor check findings, downlink results.
-- level is the syslog severity: 0 emergency, 1 alert, 2 critical, 3 error, 4 warning, 5 notice, 6 info, 7 debug.
CREATE TABLE device_logs (
  id          bigserial PRIMARY KEY,
  device_id   bigint NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
  company_id  bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  level       smallint NOT NULL CHECK (level BETWEEN 0 AND 7),
  message     text NOT NULL,
  payload     jsonb,                              -- the uplink envelope or details as received
  raw         bytea,                              -- raw payload bytes that could not be decoded
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX device_logs_device_time_idx ON device_logs (device_id, created_at DESC);
CREATE INDEX device_logs_created_brin ON device_logs USING brin (created_at);

-- Commands to devices (POST /core/devices/{id}/downlink, remote control actions), sent via MQTT or the LNS.
CREATE TABLE downlinks (
  id              bigserial PRIMARY KEY,
  company_id      bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  device_id       bigint NOT NULL,
  -- reset_counter, switch_digital_output, switch_relay_output, switch_valve, reboot, request_uplink,
  -- set_reporting_interval, raw
  command         text NOT NULL,
  payload         jsonb NOT NULL DEFAULT '{}',    -- command parameters (output number, seconds, minutes, ...)
  encoded         bytea,                          -- bytes as sent
  fport           smallint CHECK (fport BETWEEN 1 AND 223),
  state           text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sent', 'acknowledged', 'failed')),
  attempts        integer NOT NULL DEFAULT 0,
  error           text,
  created_by      bigint REFERENCES users(id) ON DELETE SET NULL, -- NULL: sent by a rule action
  rule_id         bigint,                         -- the rule whose action sent it, if any
  created_at      timestamptz NOT NULL DEFAULT now(),
  sent_at         timestamptz,
  acknowledged_at timestamptz,
  FOREIGN KEY (device_id, company_id) REFERENCES devices (id, company_id) ON DELETE CASCADE
);
CREATE INDEX downlinks_device_idx ON downlinks (device_id, created_at DESC);
CREATE INDEX downlinks_pending_idx ON downlinks (created_at) WHERE state IN ('queued', 'sent');

-- Tokens a company gives its network server (ChirpStack v4, The Things Stack v3) or scripts for webhooks
-- into the ingestion path. Only the sha-256 is stored; the ingestion path looks a token up before it knows
-- the company, hence the platform-wide unique index.
CREATE TABLE integration_tokens (
  id           bigserial PRIMARY KEY,
  company_id   bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  kind         text NOT NULL CHECK (kind IN ('chirpstack', 'tts', 'http', 'external_api')),
  name         text NOT NULL,
  token_hash   text NOT NULL UNIQUE,
  created_by   bigint REFERENCES users(id) ON DELETE SET NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at   timestamptz
);
CREATE INDEX integration_tokens_company_idx ON integration_tokens (company_id);
