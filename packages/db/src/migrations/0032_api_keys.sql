-- API keys of the licensed module "external API" (issue #27): a company's integrators call the /api/v1
-- routes their key's scopes allow, without a cookie. Only the sha-256 of a key is stored (the key is
-- shown once, at creation); `prefix` is its first characters, so a list can tell keys apart. A revoked
-- key keeps its row (revoked_at), so the list still shows what was once handed out.
CREATE TABLE api_keys (
  id            bigserial PRIMARY KEY,
  company_id    bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  name          text NOT NULL,
  prefix        text NOT NULL,
  key_hash      text NOT NULL UNIQUE,
  -- devices:read, devices:write, commands:send, rules:manage
  scopes        text[] NOT NULL,
  expires_at    timestamptz,
  -- The key acts with this user's rights, narrowed to its scopes; when the user is deleted it stops.
  created_by    bigint REFERENCES users(id) ON DELETE SET NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  revoked_at    timestamptz,
  last_used_at  timestamptz,
  request_count bigint NOT NULL DEFAULT 0
);
CREATE INDEX api_keys_company_idx ON api_keys (company_id);
SELECT app_enable_tenant_rls('api_keys');
