-- A device's status (online flag, last online, battery, signal, mobile data volume) moves from its devices
-- row into its device_current row, beside the latest values. The storage writer changes both on every
-- uplink; in two tables that was two row updates per device and write, which is what every uplink of a
-- real fleet pays (a device reporting every few minutes has one uplink per write). Now it is one. The
-- devices row keeps what people and the console change (name, state, location, metadata) and is written
-- by ingestion only when a device reports a position.
-- Readers join device_current (most already did, for the latest values); a device that never reported has
-- no such row, so its status reads as NULL and it is offline (is_active false), as before.
ALTER TABLE device_current
  ADD COLUMN is_active          boolean NOT NULL DEFAULT false, -- false: shown as offline
  ADD COLUMN last_online_at     timestamptz,
  ADD COLUMN battery_level      double precision,   -- percent; NULL: no value, shown as "off"
  ADD COLUMN battery_voltage    double precision,
  ADD COLUMN signal_strength    smallint,           -- scale 1 to 5
  ADD COLUMN rssi               integer,
  ADD COLUMN snr                double precision,
  ADD COLUMN mobile_data_volume bigint;             -- bytes used in the current billing period (NB-IoT SIM)

-- A device with status but no latest values yet gets a row without values; updated_at (the time of the
-- newest value) is then its last online time, or now for a status set by hand.
INSERT INTO device_current (device_id, company_id, updated_at, is_active, last_online_at, battery_level,
                            battery_voltage, signal_strength, rssi, snr, mobile_data_volume)
SELECT d.id, d.company_id, COALESCE(d.last_online_at, now()), d.is_active, d.last_online_at, d.battery_level,
       d.battery_voltage, d.signal_strength, d.rssi, d.snr, d.mobile_data_volume
  FROM devices d
 WHERE d.is_active OR d.last_online_at IS NOT NULL OR d.battery_level IS NOT NULL OR d.battery_voltage IS NOT NULL
    OR d.signal_strength IS NOT NULL OR d.rssi IS NOT NULL OR d.snr IS NOT NULL OR d.mobile_data_volume IS NOT NULL
ON CONFLICT (device_id) DO UPDATE SET
  is_active = EXCLUDED.is_active,
  last_online_at = EXCLUDED.last_online_at,
  battery_level = EXCLUDED.battery_level,
  battery_voltage = EXCLUDED.battery_voltage,
  signal_strength = EXCLUDED.signal_strength,
  rssi = EXCLUDED.rssi,
  snr = EXCLUDED.snr,
  mobile_data_volume = EXCLUDED.mobile_data_volume;

ALTER TABLE devices
  DROP COLUMN is_active,
  DROP COLUMN last_online_at,
  DROP COLUMN battery_level,
  DROP COLUMN battery_voltage,
  DROP COLUMN signal_strength,
  DROP COLUMN rssi,
  DROP COLUMN snr,
  DROP COLUMN mobile_data_volume;
