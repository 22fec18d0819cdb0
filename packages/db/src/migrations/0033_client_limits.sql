-- Limits per client (issue #27), as ThingsBoard tenant profiles and ChirpStack tenants have them: keys
-- max_devices, max_users, max_dashboards, max_rules_per_device, max_uplinks_per_minute. A missing key
-- means no limit. The super admin sets them; the client's main users see them with their current use.
ALTER TABLE companies ADD COLUMN limits jsonb NOT NULL DEFAULT '{}';
