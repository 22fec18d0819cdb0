-- Parking module (issue #25): what an area needs beyond migration 0004, its bays and counting sensors, the
-- counts the rules worker keeps current from uplinks, and the history it records while doing so.
--
-- Free slots are kept, not computed per request: the rules worker updates a bay's reading when an uplink
-- with `occupied` (or a vehicle count) arrives and recounts only that bay's area; its timer marks bays
-- without a reading for 8 hours as unknown and raises overstay alarms (apps/rules-worker, parking.ts).

ALTER TABLE parking_areas
  ADD COLUMN grace_minutes          integer NOT NULL DEFAULT 0 CHECK (grace_minutes >= 0),
  -- TP (temporary car park): the dates it exists; NULL for the other icons
  ADD COLUMN valid_from             date,
  ADD COLUMN valid_to               date,
  -- an alarm when free slots fall below this (0: when full); NULL: no such alarm
  ADD COLUMN alert_free_below       integer CHECK (alert_free_below >= 0),
  -- counting sensors flicker at a threshold: the free-slots alarm is raised at most once per cooldown
  ADD COLUMN alert_cooldown_minutes integer NOT NULL DEFAULT 15 CHECK (alert_cooldown_minutes >= 0),
  ADD COLUMN alert_raised_at        timestamptz,
  -- Kept by the rules worker. free_slots NULL: nothing known yet (no bay or sensor has reported).
  ADD COLUMN free_slots             integer CHECK (free_slots >= 0),
  ADD COLUMN occupied_slots         integer NOT NULL DEFAULT 0 CHECK (occupied_slots >= 0),
  ADD COLUMN unknown_slots          integer NOT NULL DEFAULT 0 CHECK (unknown_slots >= 0),
  -- AI: the vehicles the sensors reported in sum, before clamping to [0, capacity]
  ADD COLUMN reported_count         integer,
  -- AI plausibility: the reported count exceeded the capacity or was negative
  ADD COLUMN count_warning          text CHECK (count_warning IN ('above_capacity', 'negative')),
  ADD COLUMN counts_updated_at      timestamptz,
  ADD CHECK (valid_to IS NULL OR valid_from IS NULL OR valid_to >= valid_from);

-- The devices that feed an area: a FIX area's parking sensors, one per bay with its label ("A-13"), or an AI
-- area's counting sensors (label optional). A device belongs to one area (primary key); devices.parking_area_id
-- mirrors it for the device list.
CREATE TABLE parking_bays (
  device_id         bigint PRIMARY KEY,
  company_id        bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  area_id           bigint NOT NULL,
  label             text,
  occupied          boolean,            -- FIX: the latest `occupied`; NULL: never reported
  reported_count    integer,            -- AI: vehicles counted (capacity minus free spaces when it reports those)
  status_since      timestamptz,        -- since when `occupied` has its value (start of the stay when occupied)
  reading_at        timestamptz,        -- time of the latest reading; older than 8 h: unknown
  overstay_alarm_id bigint REFERENCES alarms(id) ON DELETE SET NULL,
  created_at        timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (device_id, company_id) REFERENCES devices (id, company_id) ON DELETE CASCADE,
  FOREIGN KEY (area_id, company_id) REFERENCES parking_areas (id, company_id) ON DELETE CASCADE
);
CREATE INDEX parking_bays_area_idx ON parking_bays (area_id);
CREATE UNIQUE INDEX parking_bays_area_label_key ON parking_bays (area_id, lower(label)) WHERE label IS NOT NULL;
-- The timer looks for occupied bays that may overstay, and for readings that turn stale.
CREATE INDEX parking_bays_occupied_idx ON parking_bays (status_since) WHERE occupied;
CREATE INDEX parking_bays_reading_idx ON parking_bays (reading_at);

-- One row per stay of a vehicle in a FIX bay: turnover, average and longest stay.
CREATE TABLE parking_stays (
  id          bigserial PRIMARY KEY,
  company_id  bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  area_id     bigint NOT NULL,
  device_id   bigint NOT NULL,
  started_at  timestamptz NOT NULL,
  ended_at    timestamptz,
  CHECK (ended_at IS NULL OR ended_at >= started_at),
  FOREIGN KEY (area_id, company_id) REFERENCES parking_areas (id, company_id) ON DELETE CASCADE
);
CREATE INDEX parking_stays_area_idx ON parking_stays (area_id, started_at);
CREATE UNIQUE INDEX parking_stays_open_key ON parking_stays (device_id) WHERE ended_at IS NULL;

-- The area's counts from each change on: occupancy history in hourly buckets and the share of time full.
CREATE TABLE parking_area_counts (
  company_id     bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  area_id        bigint NOT NULL,
  at             timestamptz NOT NULL,
  capacity       integer NOT NULL,
  free_slots     integer,
  occupied_slots integer NOT NULL,
  unknown_slots  integer NOT NULL,
  FOREIGN KEY (area_id, company_id) REFERENCES parking_areas (id, company_id) ON DELETE CASCADE
);
CREATE INDEX parking_area_counts_area_idx ON parking_area_counts (area_id, at);

SELECT app_enable_tenant_rls('parking_bays');
SELECT app_enable_tenant_rls('parking_stays');
SELECT app_enable_tenant_rls('parking_area_counts');
