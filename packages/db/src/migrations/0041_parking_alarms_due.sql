-- Parking alarms of a car park saved through the API (issue #25): the API recounts the area but does not
-- judge its alarms, since it cannot hand their notify jobs over (no job queue in the API). It marks the
-- area instead; the rules worker's next timer tick judges the marked areas' free-slot and count alarms and
-- hands their jobs over like those it raises itself.
ALTER TABLE parking_areas ADD COLUMN alarms_due boolean NOT NULL DEFAULT false;
CREATE INDEX parking_areas_alarms_due_idx ON parking_areas (id) WHERE alarms_due;
