-- One command, one row. A rule's remote control action is a notify job that retries with backoff when the
-- broker or network server cannot be reached; each attempt used to insert a `downlinks` row of its own, so
-- the device's command history showed one failed command per attempt for a single firing, and `attempts`
-- never passed 1. The job's idempotency key (`<rule>:<uplink message>:<action>`) now names the row: a
-- retry takes the same row up again (queued, with the new encoding and reference) and counts its attempt.
-- Commands sent by hand (POST /core/devices/{id}/downlink) have no key: each is its own row, as before.
ALTER TABLE downlinks ADD COLUMN job_key text;
CREATE UNIQUE INDEX downlinks_job_key_idx ON downlinks (company_id, job_key) WHERE job_key IS NOT NULL;
