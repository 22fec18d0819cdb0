-- What the console manages beyond devices: dashboards and widgets, farming (fields, parcels, soils,
-- plants), parking areas, water associations (NWA), tasks and support requests.

CREATE TABLE dashboards (
  id          bigserial PRIMARY KEY,
  company_id  bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  name        text NOT NULL DEFAULT '',
  position    integer NOT NULL DEFAULT 0,
  settings    jsonb NOT NULL DEFAULT '{}',
  created_by  bigint REFERENCES users(id) ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (id, company_id)
);
CREATE INDEX dashboards_company_idx ON dashboards (company_id, position);

CREATE TABLE dashboard_widgets (
  id            bigserial PRIMARY KEY,
  company_id    bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  dashboard_id  bigint NOT NULL,
  type          text NOT NULL CHECK (type IN ('table', 'line_chart', 'map')),
  title         text NOT NULL DEFAULT '',
  -- grid position and size in layout units
  x             integer NOT NULL DEFAULT 0 CHECK (x >= 0),
  y             integer NOT NULL DEFAULT 0 CHECK (y >= 0),
  w             integer NOT NULL DEFAULT 4 CHECK (w > 0),
  h             integer NOT NULL DEFAULT 4 CHECK (h > 0),
  -- device ids, data fields, time range (24h, 1w, 1m, 6m, 1y or a range), display options
  settings      jsonb NOT NULL DEFAULT '{}',
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (dashboard_id, company_id) REFERENCES dashboards (id, company_id) ON DELETE CASCADE
);
CREATE INDEX dashboard_widgets_dashboard_idx ON dashboard_widgets (dashboard_id);

-- Farming ------------------------------------------------------------------------------------------

CREATE TABLE soils (
  id          bigserial PRIMARY KEY,
  company_id  bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  name        text NOT NULL,
  properties  jsonb NOT NULL DEFAULT '{}',        -- soil type, texture, field capacity, ...
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (id, company_id)
);
CREATE INDEX soils_company_idx ON soils (company_id, name);

CREATE TABLE plants (
  id          bigserial PRIMARY KEY,
  company_id  bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  name        text NOT NULL,
  properties  jsonb NOT NULL DEFAULT '{}',
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (id, company_id)
);
CREATE INDEX plants_company_idx ON plants (company_id, name);

CREATE TABLE farming_fields (
  id          bigserial PRIMARY KEY,
  company_id  bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  name        text NOT NULL,
  -- sum of the assigned parcels' size_m2, kept when parcels are assigned (spec section 4)
  size_m2     double precision NOT NULL DEFAULT 0 CHECK (size_m2 >= 0),
  plant_id    bigint,
  soil_id     bigint,
  geometry    jsonb,                              -- GeoJSON outline, if drawn
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (id, company_id),
  FOREIGN KEY (plant_id, company_id) REFERENCES plants (id, company_id) ON DELETE SET NULL (plant_id),
  FOREIGN KEY (soil_id, company_id) REFERENCES soils (id, company_id) ON DELETE SET NULL (soil_id)
);
CREATE INDEX farming_fields_company_idx ON farming_fields (company_id, name);

-- Deleting a field unassigns its devices and parcels (spec section 4).
ALTER TABLE devices
  ADD FOREIGN KEY (field_id, company_id) REFERENCES farming_fields (id, company_id) ON DELETE SET NULL (field_id);

CREATE TABLE parcels (
  id                  bigserial PRIMARY KEY,
  company_id          bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  parcel_id           text NOT NULL,              -- cadastral parcel number as the owner knows it
  registration_number text,
  size_m2             double precision NOT NULL DEFAULT 0 CHECK (size_m2 >= 0),
  field_id            bigint,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (field_id, company_id) REFERENCES farming_fields (id, company_id) ON DELETE SET NULL (field_id)
);
CREATE INDEX parcels_company_idx ON parcels (company_id, parcel_id);
CREATE INDEX parcels_field_idx ON parcels (field_id) WHERE field_id IS NOT NULL;

-- Parking ------------------------------------------------------------------------------------------

CREATE TABLE parking_areas (
  id                  bigserial PRIMARY KEY,
  company_id          bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  name                text NOT NULL,
  description         text,
  uuid                uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  type                text NOT NULL CHECK (type IN ('FIX', 'AI')), -- fixed sensors per slot, or AI detection
  capacity            integer NOT NULL DEFAULT 0 CHECK (capacity >= 0),
  area_size_m2        double precision CHECK (area_size_m2 >= 0), -- AI areas
  max_parking_minutes integer CHECK (max_parking_minutes > 0),
  -- PS car park, TP temporary car park, PU underground parking, PG parking garage
  icon                text NOT NULL DEFAULT 'PS' CHECK (icon IN ('PS', 'TP', 'PU', 'PG')),
  latitude            double precision CHECK (latitude BETWEEN -90 AND 90),
  longitude           double precision CHECK (longitude BETWEEN -180 AND 180),
  geometry            jsonb,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  UNIQUE (id, company_id)
);
CREATE INDEX parking_areas_company_idx ON parking_areas (company_id, name);

-- Parking sensors (and AI cameras) belong to an area; free slots = capacity minus occupied sensors.
ALTER TABLE devices ADD COLUMN parking_area_id bigint,
  ADD FOREIGN KEY (parking_area_id, company_id) REFERENCES parking_areas (id, company_id)
    ON DELETE SET NULL (parking_area_id);
CREATE INDEX devices_parking_area_idx ON devices (parking_area_id) WHERE parking_area_id IS NOT NULL;

-- Water associations (NWA) -------------------------------------------------------------------------
-- An NWA is a company with is_nwa. These rows concern two companies: company_id is the member (the
-- tenant whose data it is), nwa_company_id the association; both tenants may see them (see the row-level
-- security migration).

CREATE TABLE nwa_members (
  nwa_company_id bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  company_id     bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  is_admin       boolean NOT NULL DEFAULT false,  -- association admin: members, shared devices, devices
  created_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (nwa_company_id, company_id),
  CHECK (nwa_company_id <> company_id)
);
CREATE INDEX nwa_members_company_idx ON nwa_members (company_id);

CREATE TABLE nwa_membership_requests (
  id             bigserial PRIMARY KEY,
  nwa_company_id bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  company_id     bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  state          text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'accepted', 'rejected')),
  requested_by   bigint REFERENCES users(id) ON DELETE SET NULL,
  decided_by     bigint REFERENCES users(id) ON DELETE SET NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  decided_at     timestamptz,
  CHECK ((state = 'pending') = (decided_at IS NULL))
);
CREATE UNIQUE INDEX nwa_membership_requests_pending_key ON nwa_membership_requests (nwa_company_id, company_id)
  WHERE state = 'pending';
CREATE INDEX nwa_membership_requests_company_idx ON nwa_membership_requests (company_id);

-- A member's device shared with its association (water meters, valves, pumps).
CREATE TABLE nwa_shared_devices (
  id             bigserial PRIMARY KEY,
  nwa_company_id bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  company_id     bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  device_id      bigint NOT NULL,
  usage          jsonb NOT NULL DEFAULT '{}',     -- "water device usage" settings
  created_at     timestamptz NOT NULL DEFAULT now(),
  UNIQUE (nwa_company_id, device_id),
  FOREIGN KEY (device_id, company_id) REFERENCES devices (id, company_id) ON DELETE CASCADE,
  FOREIGN KEY (nwa_company_id, company_id) REFERENCES nwa_members (nwa_company_id, company_id) ON DELETE CASCADE
);
CREATE INDEX nwa_shared_devices_company_idx ON nwa_shared_devices (company_id);

-- Water a member may draw, per hour and per year (m³), for the member as a whole (device_id NULL) or one
-- of its shared devices.
CREATE TABLE nwa_max_flow_rates (
  id             bigserial PRIMARY KEY,
  nwa_company_id bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  company_id     bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  device_id      bigint,
  max_per_hour   double precision CHECK (max_per_hour >= 0),
  max_per_year   double precision CHECK (max_per_year >= 0),
  valid_from     date NOT NULL DEFAULT CURRENT_DATE,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (nwa_company_id, company_id) REFERENCES nwa_members (nwa_company_id, company_id) ON DELETE CASCADE,
  FOREIGN KEY (device_id, company_id) REFERENCES devices (id, company_id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX nwa_max_flow_rates_key
  ON nwa_max_flow_rates (nwa_company_id, company_id, COALESCE(device_id, 0), valid_from);

-- Tasks and support --------------------------------------------------------------------------------

CREATE TABLE tasks (
  id               bigserial PRIMARY KEY,
  company_id       bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  title            text NOT NULL,
  type             text NOT NULL DEFAULT 'general',  -- general, irrigation, maintenance, harvest, ...
  status           text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'in_progress', 'done', 'cancelled')),
  description      text,
  due_at           timestamptz,
  assigned_user_id bigint REFERENCES users(id) ON DELETE SET NULL,
  field_id         bigint,
  device_id        bigint,
  -- [{at, user_id, status, note}], newest last; appended on every change
  history          jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(history) = 'array'),
  created_by       bigint REFERENCES users(id) ON DELETE SET NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (field_id, company_id) REFERENCES farming_fields (id, company_id) ON DELETE SET NULL (field_id),
  FOREIGN KEY (device_id, company_id) REFERENCES devices (id, company_id) ON DELETE SET NULL (device_id)
);
CREATE INDEX tasks_company_idx ON tasks (company_id, status, due_at);

CREATE TABLE support_requests (
  id          bigserial PRIMARY KEY,
  company_id  bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  user_id     bigint REFERENCES users(id) ON DELETE SET NULL,
  subject     text NOT NULL,
  message     text NOT NULL,
  email       text,
  phone       text,
  context     jsonb NOT NULL DEFAULT '{}',        -- page, browser, app version
  status      text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX support_requests_company_idx ON support_requests (company_id, created_at DESC);
