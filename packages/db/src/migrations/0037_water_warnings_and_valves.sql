-- Water associations, continued (issue #26): the association may have a member's valves closed when the
-- member has used up its yearly allowance (the valves shared with control that count against it, by the
-- spec's "switch solenoid valve" command), and the warnings remember what was sent for them.
ALTER TABLE nwa_settings
  ADD COLUMN close_valves_at_limit boolean NOT NULL DEFAULT false;
