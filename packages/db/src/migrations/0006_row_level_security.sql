-- Row-level security, the second wall behind the company filter every repository applies.
--
-- The platform connects as the owner of the schema (the role that runs the migrations). That role reads
-- across tenants where it must: ingestion resolves a device before it knows the company, the super admin
-- lists clients. Tenant-scoped work runs through withTenant() (src/tenant.ts): one transaction with
-- SET LOCAL ROLE iot_tenant and app.company_id set to the acting company. For iot_tenant every tenant-owned
-- table shows and accepts only that company's rows, so a query that forgets its WHERE clause still cannot
-- read or change another company's data. Superusers (PGlite always runs as one) bypass row-level security
-- entirely, which is why the role switch, not only the setting, is what makes the wall hold.
--
-- Every later migration that creates a tenant-owned table calls SELECT app_enable_tenant_rls('table');
-- rls.test.ts fails for any table with a company_id column that has no policy.

DO $role$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'iot_tenant') THEN
    -- Roles are cluster-wide: two databases migrating at once may race to create it.
    BEGIN
      CREATE ROLE iot_tenant NOLOGIN;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
      NULL;
    END;
  END IF;
  -- A non-superuser owner must be a member of iot_tenant to SET ROLE to it.
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    EXECUTE format('GRANT iot_tenant TO %I', current_user);
  END IF;
END
$role$;

-- The acting company of the current transaction, NULL when none is set (then no tenant row is visible).
CREATE FUNCTION app_current_company_id() RETURNS bigint
  LANGUAGE sql STABLE
  AS $$ SELECT nullif(current_setting('app.company_id', true), '')::bigint $$;

-- Puts a tenant-owned table behind row-level security: iot_tenant sees and writes rows whose company_id is
-- the acting company (or, with also_visible_when, rows matching that extra condition too); the owner role
-- keeps full access through its own policy, which matters when it is not a superuser (FORCE applies the
-- policies to the owner as well).
CREATE FUNCTION app_enable_tenant_rls(tbl regclass, also_visible_when text DEFAULT NULL) RETURNS void
  LANGUAGE plpgsql
  AS $fn$
DECLARE
  predicate text := 'company_id = app_current_company_id()';
BEGIN
  IF also_visible_when IS NOT NULL THEN
    predicate := format('(%s) OR (%s)', predicate, also_visible_when);
  END IF;
  EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', tbl);
  EXECUTE format('ALTER TABLE %s FORCE ROW LEVEL SECURITY', tbl);
  EXECUTE format('DROP POLICY IF EXISTS tenant_isolation ON %s', tbl);
  EXECUTE format('CREATE POLICY tenant_isolation ON %s TO iot_tenant USING (%s) WITH CHECK (%s)',
                 tbl, predicate, predicate);
  EXECUTE format('DROP POLICY IF EXISTS platform_access ON %s', tbl);
  EXECUTE format('CREATE POLICY platform_access ON %s TO %I USING (true) WITH CHECK (true)', tbl, current_user);
  EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %s TO iot_tenant', tbl);
  -- bigserial columns draw from sequences the tenant role must be allowed to use.
  EXECUTE 'GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO iot_tenant';
END
$fn$;

-- Every table with a company_id column. The water association tables concern two companies: the member
-- (company_id) and the association (nwa_company_id), and both see them.
DO $tables$
DECLARE
  t record;
BEGIN
  FOR t IN
    SELECT c.table_name
    FROM information_schema.columns c
    JOIN information_schema.tables tb ON tb.table_schema = c.table_schema AND tb.table_name = c.table_name
    WHERE c.table_schema = 'public' AND c.column_name = 'company_id' AND tb.table_type = 'BASE TABLE'
    ORDER BY c.table_name
  LOOP
    IF t.table_name IN ('nwa_members', 'nwa_membership_requests', 'nwa_shared_devices', 'nwa_max_flow_rates') THEN
      PERFORM app_enable_tenant_rls(t.table_name::regclass, 'nwa_company_id = app_current_company_id()');
    ELSE
      PERFORM app_enable_tenant_rls(t.table_name::regclass);
    END IF;
  END LOOP;
END
$tables$;

-- The tenant sees and may update its own company row (PUT /core/company), nothing else of that table.
ALTER TABLE companies ENABLE ROW LEVEL SECURITY;
ALTER TABLE companies FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON companies TO iot_tenant
  USING (id = app_current_company_id()) WITH CHECK (id = app_current_company_id());
DO $owner$
BEGIN
  EXECUTE format('CREATE POLICY platform_access ON companies TO %I USING (true) WITH CHECK (true)', current_user);
END
$owner$;
GRANT SELECT, UPDATE ON companies TO iot_tenant;

-- Shared reference lists.
GRANT SELECT ON countries, states, districts TO iot_tenant;
