-- Parking alarms reach people through the platform's rule actions (issue #25): a car park has at most one
-- rule of trigger 'parking', owned by the area instead of a device, whose actions (email, SMS, voice,
-- system message, http, remote control) the notifier delivers for every parking alarm the rules worker
-- raises for that area: overstay, free slots below the threshold (full), implausible count.
ALTER TABLE rules
  ALTER COLUMN device_id DROP NOT NULL,
  ADD COLUMN parking_area_id bigint,
  ADD FOREIGN KEY (parking_area_id, company_id) REFERENCES parking_areas (id, company_id) ON DELETE CASCADE,
  DROP CONSTRAINT rules_trigger_check,
  ADD CONSTRAINT rules_trigger_check CHECK (trigger IN ('data', 'click', 'no_data', 'parking')),
  -- A device's rule has a device; a parking rule has an area and no device.
  ADD CONSTRAINT rules_owner_valid CHECK (
    CASE WHEN trigger = 'parking' THEN parking_area_id IS NOT NULL AND device_id IS NULL
         ELSE device_id IS NOT NULL AND parking_area_id IS NULL END
  );
CREATE UNIQUE INDEX rules_parking_area_key ON rules (parking_area_id) WHERE parking_area_id IS NOT NULL;
