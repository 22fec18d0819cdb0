-- Client administration (issue #27): what ingest caches of a company, announced when it changes, and
-- the client's consent to support access.

-- Ingest refuses uplinks of a blocked or deleted company and counts each company's uplinks per minute
-- against its limit; it caches both per company (no query per uplink). A change of either is announced
-- on this channel (payload: the company id), as device changes are (migration 0009).
CREATE FUNCTION announce_company_change() RETURNS trigger
  LANGUAGE plpgsql
  AS $fn$
BEGIN
  PERFORM pg_notify('iot_company_changed', (CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END)::text);
  RETURN NULL;
END
$fn$;
CREATE TRIGGER companies_announce_update AFTER UPDATE ON companies
  FOR EACH ROW WHEN ((OLD.blocked, OLD.deleted_at, OLD.limits, OLD.modules)
                     IS DISTINCT FROM (NEW.blocked, NEW.deleted_at, NEW.limits, NEW.modules))
  EXECUTE FUNCTION announce_company_change();
CREATE TRIGGER companies_announce_delete AFTER DELETE ON companies
  FOR EACH ROW EXECUTE FUNCTION announce_company_change();

-- Support access (Cumulocity's support user): 'always' lets the super admin act as the client at any
-- time; 'consent' only while a main user's grant runs (support_access_until). The super admin's request
-- for access is kept with its time, so the client's main users see that support asked.
ALTER TABLE companies
  ADD COLUMN support_access text NOT NULL DEFAULT 'always' CHECK (support_access IN ('always', 'consent')),
  ADD COLUMN support_access_until timestamptz,
  ADD COLUMN support_access_requested_at timestamptz;
