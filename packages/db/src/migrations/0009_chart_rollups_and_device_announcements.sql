-- Pre-aggregated chart buckets (GET /core/data/{id} over long ranges). A year of 10-minute data is 52,560
-- rows whose JSONB values cost about 25 ms per field per year to extract on PostgreSQL (three times that on
-- PGlite), so charts of more than about two months read closed buckets from here instead: per device,
-- company, field and bucket width, the minimum, maximum, sum and count of the field's numeric values
-- (booleans as 1 and 0, like the raw query). field '' holds the rows of the bucket (count only); a data
-- field named '' is therefore never rolled up (the API reads it raw).
--
-- Built read-through by the API (packages/db/src/repositories/device-data.ts): a bucket is stored once it
-- ended more than 30 minutes ago (ROLLUP_CLOSED_AFTER_MS), zero-count rows included so an empty bucket is
-- not rebuilt; buckets still open and the partial buckets at the edges of a range come from the raw rows.
-- Only the chart widths of one hour and more are stored (the CHECK below; the API's chooseBucketSeconds
-- picks them for ranges over about 62 days), each aligned to the same origin as the raw query
-- (2000-01-01T00:00:00Z).
--
-- Rows keep the company that owned the device when they were recorded, like device_data, hence
-- company_id in the key and no foreign key to devices(id, company_id).
CREATE TABLE device_data_rollups (
  device_id       bigint NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
  company_id      bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  field           text NOT NULL,
  bucket_seconds  integer NOT NULL
                  CHECK (bucket_seconds IN (3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800, 2592000)),
  bucket          timestamptz NOT NULL,
  min             double precision,
  max             double precision,
  sum             double precision,
  count           integer NOT NULL,
  PRIMARY KEY (device_id, company_id, field, bucket_seconds, bucket)
);
SELECT app_enable_tenant_rls('device_data_rollups');

-- Invalidation. Any change to a device_data row whose time lies in a bucket that may already be rolled up
-- (older than 15 minutes: the builder stores only buckets that ended 30 minutes ago, so live uplinks never
-- reach this) deletes the rolled-up buckets of every width that contain it, for the fields the row holds
-- and for the row count; the next chart read rebuilds them from the raw rows. The WHEN clauses keep live
-- ingestion free of any trigger call.
--
-- Race with a builder: the builder takes pg_advisory_xact_lock(ROLLUP_LOCK, device) before it reads the raw
-- rows and holds it until it commits; this function takes the same lock shared. A late row committed while
-- a builder runs either made the builder wait (so the builder's raw read sees it) or waits for the builder
-- to commit (so the DELETE below sees and removes what the builder stored).
CREATE FUNCTION device_data_rollups_invalidate_row(p_device_id bigint, p_company_id bigint,
                                                   p_created_at timestamptz, p_data jsonb) RETURNS void
  LANGUAGE plpgsql
  AS $fn$
BEGIN
  -- 0x726f6c6c = 'roll'; the second key is the device id folded into an int4 (a collision only serialises).
  PERFORM pg_advisory_xact_lock_shared(1919904876, (p_device_id % 2147483647)::int);
  DELETE FROM device_data_rollups r
   USING unnest(ARRAY[3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800, 2592000]) AS w(seconds)
   WHERE r.device_id = p_device_id
     AND r.company_id = p_company_id
     AND r.field = ANY (array_append(ARRAY(SELECT jsonb_object_keys(p_data)), ''))
     AND r.bucket_seconds = w.seconds
     AND r.bucket = date_bin(make_interval(secs => w.seconds), p_created_at, '2000-01-01T00:00:00Z');
END
$fn$;

CREATE FUNCTION device_data_rollups_invalidate() RETURNS trigger
  LANGUAGE plpgsql
  AS $fn$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM device_data_rollups_invalidate_row(NEW.device_id, NEW.company_id, NEW.created_at, NEW.data);
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM device_data_rollups_invalidate_row(OLD.device_id, OLD.company_id, OLD.created_at, OLD.data);
  END IF;
  RETURN NULL;
END
$fn$;

CREATE TRIGGER device_data_rollups_insert AFTER INSERT ON device_data
  FOR EACH ROW WHEN (NEW.created_at < now() - interval '15 minutes')
  EXECUTE FUNCTION device_data_rollups_invalidate();
-- The rules worker merges virtual fields into existing rows (ON CONFLICT DO UPDATE).
CREATE TRIGGER device_data_rollups_update AFTER UPDATE ON device_data
  FOR EACH ROW WHEN (NEW.created_at < now() - interval '15 minutes'
                     OR OLD.created_at < now() - interval '15 minutes')
  EXECUTE FUNCTION device_data_rollups_invalidate();
CREATE TRIGGER device_data_rollups_delete AFTER DELETE ON device_data
  FOR EACH ROW WHEN (OLD.created_at < now() - interval '15 minutes')
  EXECUTE FUNCTION device_data_rollups_invalidate();

CREATE FUNCTION device_data_rollups_truncate() RETURNS trigger
  LANGUAGE plpgsql
  AS $fn$
BEGIN
  DELETE FROM device_data_rollups;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER device_data_rollups_truncate AFTER TRUNCATE ON device_data
  FOR EACH STATEMENT EXECUTE FUNCTION device_data_rollups_truncate();

-- Device changes announced to ingestion's lookup cache (apps/ingest/src/devices/). In the distributed
-- profile ingest runs in other processes and LISTENs on these channels; pg_notify inside the changing
-- transaction is delivered only when it commits, so nothing that rolled back is announced, and a trigger
-- announces every path that changes a device (console edit, token rotation, reassignment, deletion,
-- scripts) without each having to remember. Only the columns ingest caches count (IngestDevice in
-- repositories/devices-ingest.ts): the storage writer's status updates (battery, last online, signal)
-- announce nothing. Payload: the device's id and the keys ingest caches it under, before and after the
-- change ({id, keys: [{company_id, uuid, dev_eui}, ...]}), so ingest drops exactly those entries (and a
-- cached "unknown device" for a new uuid or DevEUI) without scanning its cache: a bulk import of
-- thousands of devices must not cost a scan per device.
CREATE FUNCTION announce_device_change() RETURNS trigger
  LANGUAGE plpgsql
  AS $fn$
DECLARE
  keys json[] := '{}';
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    keys := keys || json_build_object('company_id', OLD.company_id, 'uuid', OLD.uuid, 'dev_eui', OLD.dev_eui);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    keys := keys || json_build_object('company_id', NEW.company_id, 'uuid', NEW.uuid, 'dev_eui', NEW.dev_eui);
  END IF;
  PERFORM pg_notify('iot_device_changed', json_build_object(
    'id', CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END, 'keys', to_json(keys))::text);
  RETURN NULL;
END
$fn$;
CREATE TRIGGER devices_announce_insert_delete AFTER INSERT OR DELETE ON devices
  FOR EACH ROW EXECUTE FUNCTION announce_device_change();
CREATE TRIGGER devices_announce_update AFTER UPDATE ON devices
  FOR EACH ROW WHEN ((OLD.uuid, OLD.company_id, OLD.dev_eui, OLD.credentials_hash, OLD.driver_id, OLD.codec_id,
                      OLD.state)
                     IS DISTINCT FROM
                     (NEW.uuid, NEW.company_id, NEW.dev_eui, NEW.credentials_hash, NEW.driver_id, NEW.codec_id,
                      NEW.state))
  EXECUTE FUNCTION announce_device_change();

-- A revoked (or deleted) integration token must stop working at once as well; last_used_at updates
-- announce nothing. Payload: the token's id.
CREATE FUNCTION announce_integration_token_change() RETURNS trigger
  LANGUAGE plpgsql
  AS $fn$
BEGIN
  PERFORM pg_notify('iot_integration_token_changed',
                    (CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END)::text);
  RETURN NULL;
END
$fn$;
CREATE TRIGGER integration_tokens_announce_update AFTER UPDATE ON integration_tokens
  FOR EACH ROW WHEN ((OLD.token_hash, OLD.company_id, OLD.kind, OLD.revoked_at)
                     IS DISTINCT FROM (NEW.token_hash, NEW.company_id, NEW.kind, NEW.revoked_at))
  EXECUTE FUNCTION announce_integration_token_change();
CREATE TRIGGER integration_tokens_announce_delete AFTER DELETE ON integration_tokens
  FOR EACH ROW EXECUTE FUNCTION announce_integration_token_change();
