-- Identity and tenancy: companies (tenants), users, sessions, password reset tokens, geography lists.
-- Company id 1 is the super admin company (spec section 1).

CREATE TABLE countries (
  id          serial PRIMARY KEY,
  code        char(2) NOT NULL UNIQUE,           -- AT, CH, DE, FR
  name        text NOT NULL
);

CREATE TABLE states (
  id          serial PRIMARY KEY,
  country_id  integer NOT NULL REFERENCES countries(id) ON DELETE CASCADE,
  name        text NOT NULL,
  UNIQUE (country_id, name)
);

CREATE TABLE districts (
  id          serial PRIMARY KEY,
  state_id    integer NOT NULL REFERENCES states(id) ON DELETE CASCADE,
  name        text NOT NULL,
  UNIQUE (state_id, name)
);

CREATE TABLE companies (
  id              bigserial PRIMARY KEY,
  name            text NOT NULL,
  name2           text,                          -- second name line
  street          text,
  street_number   text,
  zip             text,
  city            text,
  district_id     integer REFERENCES districts(id),
  state_id        integer REFERENCES states(id),
  country_id      integer REFERENCES countries(id),
  phone           text,
  email           text,
  customer_number text,
  logo            text,
  -- licensed modules: map_view, parking, farming, water_association, external_api, paid_messaging
  modules         text[] NOT NULL DEFAULT '{}',
  is_nwa          boolean NOT NULL DEFAULT false, -- the company is a water association (NWA)
  blocked         boolean NOT NULL DEFAULT false,
  deleted_at      timestamptz,
  latitude        double precision,
  longitude       double precision,
  timezone        text NOT NULL DEFAULT 'Europe/Berlin',
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id                     bigserial PRIMARY KEY,
  company_id             bigint REFERENCES companies(id) ON DELETE CASCADE, -- NULL: user without company (code 74)
  email                  text NOT NULL,
  name                   text NOT NULL DEFAULT '',
  password_hash          text NOT NULL,
  locale                 text NOT NULL DEFAULT 'de',
  roles                  text[] NOT NULL DEFAULT '{}',  -- ROLE_ADMIN, ROLE_MAINUSER
  eula_accepted          boolean NOT NULL DEFAULT false,
  require_password_reset boolean NOT NULL DEFAULT false,
  phone                  text,
  last_login_at          timestamptz,
  deleted_at             timestamptz,
  created_at             timestamptz NOT NULL DEFAULT now(),
  updated_at             timestamptz NOT NULL DEFAULT now()
);
-- An address is registered once across the platform (code 73), compared case-insensitively.
CREATE UNIQUE INDEX users_email_key ON users (lower(email)) WHERE deleted_at IS NULL;
CREATE INDEX users_company_idx ON users (company_id);

CREATE TABLE sessions (
  id                      text PRIMARY KEY,          -- sha-256 of the random session token held in the cookie
  user_id                 bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  impersonated_company_id bigint REFERENCES companies(id) ON DELETE SET NULL,
  csrf_token              text NOT NULL,
  ip                      text,
  user_agent              text,
  created_at              timestamptz NOT NULL DEFAULT now(),
  last_seen_at            timestamptz NOT NULL DEFAULT now(),
  expires_at              timestamptz NOT NULL
);
CREATE INDEX sessions_user_idx ON sessions (user_id);
CREATE INDEX sessions_expires_idx ON sessions (expires_at);

CREATE TABLE password_reset_tokens (
  token_hash  text PRIMARY KEY,                      -- sha-256 of the emailed token; the token itself is never stored
  user_id     bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- Security-relevant events: logins, impersonation start and end, password resets.
CREATE TABLE audit_log (
  id          bigserial PRIMARY KEY,
  company_id  bigint REFERENCES companies(id) ON DELETE CASCADE,
  user_id     bigint REFERENCES users(id) ON DELETE SET NULL,
  action      text NOT NULL,
  details     jsonb NOT NULL DEFAULT '{}',
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_company_idx ON audit_log (company_id, created_at DESC);

-- Mail that could not be handed to an SMTP server because none is configured (embedded profile);
-- the console shows it. With SMTP configured, sent mail is recorded here too, with sent_at.
CREATE TABLE outbox_emails (
  id          bigserial PRIMARY KEY,
  company_id  bigint REFERENCES companies(id) ON DELETE CASCADE,
  recipients  text[] NOT NULL,
  cc          text[] NOT NULL DEFAULT '{}',
  subject     text NOT NULL,
  body        text NOT NULL,
  sent_at     timestamptz,
  error       text,
  created_at  timestamptz NOT NULL DEFAULT now()
);
