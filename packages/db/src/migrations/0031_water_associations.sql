-- Water associations (issue #26): the association's permit and settings, how a member's device is shared
-- with it, and the row-level security that lets the association see exactly the shared devices.
--
-- Who stands where towards an association is one question every policy below asks, so it is one
-- function: app_nwa_role(nwa) is 'association' for the association itself, 'admin' or 'member' for a
-- member company (nwa_members.is_admin), NULL for everyone else. It is SECURITY DEFINER because a policy
-- on nwa_members cannot read nwa_members again as the tenant (that recursion is an error); it reads one
-- row by primary key and answers only about the acting company.
CREATE FUNCTION app_nwa_role(nwa bigint) RETURNS text
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public
  AS $$
    SELECT CASE
      WHEN nwa = app_current_company_id() THEN 'association'
      ELSE (SELECT CASE WHEN m.is_admin THEN 'admin' ELSE 'member' END
              FROM nwa_members m
             WHERE m.nwa_company_id = nwa AND m.company_id = app_current_company_id())
    END
  $$;

-- The permit and the association's choices. One row per association (created on first edit; the API
-- answers the defaults without one).
CREATE TABLE nwa_settings (
  nwa_company_id          bigint PRIMARY KEY REFERENCES companies(id) ON DELETE CASCADE,
  max_flow_per_hour       double precision CHECK (max_flow_per_hour >= 0),    -- permit, m³/h
  max_volume_per_year     double precision CHECK (max_volume_per_year >= 0),  -- permit, m³/a
  water_year_start_month  smallint NOT NULL DEFAULT 1 CHECK (water_year_start_month BETWEEN 1 AND 12),
  time_zone               text NOT NULL DEFAULT 'Europe/Berlin',
  -- Members (not only admins) see every shared device of the association and its data.
  members_see_shared_devices boolean NOT NULL DEFAULT false,
  updated_at              timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE nwa_settings ENABLE ROW LEVEL SECURITY;
ALTER TABLE nwa_settings FORCE ROW LEVEL SECURITY;
-- Every member reads its association's permit; the association and its admins write it.
CREATE POLICY tenant_isolation ON nwa_settings TO iot_tenant
  USING (app_nwa_role(nwa_company_id) IS NOT NULL)
  WITH CHECK (app_nwa_role(nwa_company_id) IN ('association', 'admin'));
DO $owner$
BEGIN
  EXECUTE format('CREATE POLICY platform_access ON nwa_settings TO %I USING (true) WITH CHECK (true)', current_user);
END
$owner$;
GRANT SELECT, INSERT, UPDATE, DELETE ON nwa_settings TO iot_tenant;

-- Whether the acting company sees a device the member `owner` shares with `nwa`: the owner itself, the
-- association and its admins always; plain members where the association lets them.
CREATE FUNCTION app_nwa_sees_share(nwa bigint, owner bigint) RETURNS boolean
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public
  AS $$
    SELECT owner = app_current_company_id()
        OR coalesce(app_nwa_role(nwa) IN ('association', 'admin'), false)
        OR (app_nwa_role(nwa) = 'member'
            AND coalesce((SELECT s.members_see_shared_devices FROM nwa_settings s WHERE s.nwa_company_id = nwa), false))
  $$;

-- A share: read-only, or with control (the association's admins may send valve and pump commands).
-- counts_against is the member whose consumption the meter is; unit and meter_factor turn the counter's
-- reading into m³ (m³ = reading × factor, litres × 0.001).
ALTER TABLE nwa_shared_devices
  ADD COLUMN access text NOT NULL DEFAULT 'read' CHECK (access IN ('read', 'control')),
  ADD COLUMN shared_by bigint REFERENCES users(id) ON DELETE SET NULL,
  ADD COLUMN data_field text NOT NULL DEFAULT 'counter_1',
  ADD COLUMN unit text NOT NULL DEFAULT 'm3' CHECK (unit IN ('m3', 'l')),
  ADD COLUMN meter_factor double precision NOT NULL DEFAULT 1 CHECK (meter_factor > 0),
  ADD COLUMN counts_against_company_id bigint,
  ADD FOREIGN KEY (nwa_company_id, counts_against_company_id)
    REFERENCES nwa_members (nwa_company_id, company_id) ON DELETE SET NULL (counts_against_company_id);

-- The share rows themselves: admins (and members where allowed) read the association's shares. Writing
-- stays with tenant_isolation (the owner shares and unshares; the association edits the usage).
CREATE POLICY nwa_share_read ON nwa_shared_devices FOR SELECT TO iot_tenant
  USING (app_nwa_sees_share(nwa_company_id, company_id));

-- The shared devices, their latest values and their data: read-only, and only rows of a device that is
-- shared with an association the acting company sees it through. The subquery is uncorrelated, so the
-- planner hashes it once per statement instead of probing per data row. Nothing else of the owner (rules,
-- alarms, logs, users, other devices) gets a policy, so nothing else becomes visible.
CREATE POLICY nwa_share_read ON devices FOR SELECT TO iot_tenant
  USING ((id, company_id) IN (SELECT s.device_id, s.company_id FROM nwa_shared_devices s
                               WHERE app_nwa_sees_share(s.nwa_company_id, s.company_id)));
CREATE POLICY nwa_share_read ON device_current FOR SELECT TO iot_tenant
  USING ((device_id, company_id) IN (SELECT s.device_id, s.company_id FROM nwa_shared_devices s
                                      WHERE app_nwa_sees_share(s.nwa_company_id, s.company_id)));
CREATE POLICY nwa_share_read ON device_data FOR SELECT TO iot_tenant
  USING ((device_id, company_id) IN (SELECT s.device_id, s.company_id FROM nwa_shared_devices s
                                      WHERE app_nwa_sees_share(s.nwa_company_id, s.company_id)));

-- Admin members manage the association's member rows, allowances and open requests like the association
-- itself (spec section 6: "Association admin: members, shared devices, device management"); plain members
-- keep seeing only their own rows (tenant_isolation).
CREATE POLICY nwa_admin_manage ON nwa_members TO iot_tenant
  USING (app_nwa_role(nwa_company_id) = 'admin') WITH CHECK (app_nwa_role(nwa_company_id) = 'admin');
CREATE POLICY nwa_admin_manage ON nwa_membership_requests TO iot_tenant
  USING (app_nwa_role(nwa_company_id) = 'admin') WITH CHECK (app_nwa_role(nwa_company_id) = 'admin');
CREATE POLICY nwa_admin_manage ON nwa_max_flow_rates TO iot_tenant
  USING (app_nwa_role(nwa_company_id) = 'admin') WITH CHECK (app_nwa_role(nwa_company_id) = 'admin');
-- ... and edit a shared device's usage settings (never share or unshare another member's device).
CREATE POLICY nwa_admin_manage ON nwa_shared_devices FOR UPDATE TO iot_tenant
  USING (app_nwa_role(nwa_company_id) = 'admin') WITH CHECK (app_nwa_role(nwa_company_id) = 'admin');

-- Usage warnings sent, once each: 80 % and 100 % of a member's yearly allowance per water year, and an
-- hour over the hourly cap per hour. The unique key makes "once" hold under concurrent evaluations.
CREATE TABLE nwa_usage_warnings (
  id             bigserial PRIMARY KEY,
  nwa_company_id bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  company_id     bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,  -- the member
  kind           text NOT NULL CHECK (kind IN ('year_80', 'year_100', 'hour_cap')),
  period_start   timestamptz NOT NULL,   -- the water year's or the hour's start
  value          double precision NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  UNIQUE (nwa_company_id, company_id, kind, period_start)
);
SELECT app_enable_tenant_rls('nwa_usage_warnings', 'nwa_company_id = app_current_company_id()');
