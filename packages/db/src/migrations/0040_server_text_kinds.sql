-- Text the platform writes for people is worded in the reader's language when it is read (issue #23):
-- a device log entry keeps its kind and parameters (the catalogue SERVER_TEXTS of @iot/domain) beside
-- the English `message`, as system messages do since migration 0023. The API words an entry with a kind
-- in the reading user's language; older entries, and kinds a version does not know, show `message` as
-- it was stored. `payload` stays what it was: the machine's record (jobs, raw envelope).
ALTER TABLE device_logs ADD COLUMN kind text, ADD COLUMN params jsonb;
