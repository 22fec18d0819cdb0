-- Sensor checks of kind battery_low (the rules engine evaluates them: battery level below min_value raises
-- an alarm). Migration 0003 allowed only no_data and implausible_value; this widens the kind CHECK and
-- requires the level (min_value) for battery checks.

ALTER TABLE sensor_checks DROP CONSTRAINT IF EXISTS sensor_checks_kind_check;
ALTER TABLE sensor_checks
  ADD CONSTRAINT sensor_checks_kind_check CHECK (kind IN ('no_data', 'implausible_value', 'battery_low'));
ALTER TABLE sensor_checks
  ADD CONSTRAINT sensor_checks_battery_level CHECK (kind <> 'battery_low' OR min_value IS NOT NULL);
