-- Rules with their actions, virtual data fields, sensor checks, alarms, system messages, the notification
-- log and the job idempotency keys of the notifier.

CREATE TABLE rules (
  id                   bigserial PRIMARY KEY,
  company_id           bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  device_id            bigint NOT NULL,
  name                 text NOT NULL DEFAULT '',
  is_active            boolean NOT NULL DEFAULT true,
  -- data: a data field crosses a condition; click: a push button event; no_data: nothing heard for a while
  trigger              text NOT NULL DEFAULT 'data' CHECK (trigger IN ('data', 'click', 'no_data')),
  data_field           text,
  operator             text CHECK (operator IN ('lte', 'gte', 'eq', 'in', 'out', 'rie', 'fae')),
  value                double precision,          -- threshold for lte, gte, eq, rie, fae
  range_min            double precision,          -- range for in / out
  range_max            double precision,
  -- The condition has to hold this long before the rule fires (0: at once).
  time_window_seconds  integer NOT NULL DEFAULT 0 CHECK (time_window_seconds >= 0),
  -- Local times in the company's zone and ISO weekdays (1 Monday .. 7 Sunday) when the rule may fire.
  schedule_start       time,
  schedule_end         time,
  schedule_weekdays    smallint[] NOT NULL DEFAULT '{1,2,3,4,5,6,7}',
  -- At most max_actions firings per max_actions_period_seconds (NULL: unlimited).
  max_actions          integer CHECK (max_actions > 0),
  max_actions_period_seconds integer CHECK (max_actions_period_seconds > 0),
  click_type           smallint CHECK (click_type IN (1, 2, 4)), -- single 1, double 2, long 4
  max_clicks           integer CHECK (max_clicks > 0),
  -- Evaluation state kept between uplinks: last value and side of the threshold (edges for rie/fae),
  -- since when the condition holds (time window), click and firing counters with their period start.
  state                jsonb NOT NULL DEFAULT '{}',
  last_fired_at        timestamptz,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now(),
  UNIQUE (id, company_id),
  FOREIGN KEY (device_id, company_id) REFERENCES devices (id, company_id) ON DELETE CASCADE,
  CONSTRAINT rules_condition_valid CHECK (
    trigger <> 'data' OR (
      data_field IS NOT NULL AND operator IS NOT NULL AND (
        (operator IN ('in', 'out') AND range_min IS NOT NULL AND range_max IS NOT NULL AND range_min <= range_max)
        OR (operator NOT IN ('in', 'out') AND value IS NOT NULL)
      )
    )
  ),
  -- Spec section 5: start before end and at least one weekday.
  CONSTRAINT rules_schedule_valid CHECK (
    ((schedule_start IS NULL) = (schedule_end IS NULL))
    AND (schedule_start IS NULL OR schedule_start < schedule_end)
    AND cardinality(schedule_weekdays) > 0
    AND schedule_weekdays <@ '{1,2,3,4,5,6,7}'::smallint[]
  ),
  CONSTRAINT rules_max_actions_pair CHECK ((max_actions IS NULL) = (max_actions_period_seconds IS NULL)),
  CONSTRAINT rules_click_type_required CHECK (trigger <> 'click' OR click_type IS NOT NULL)
);
-- The rules worker loads the active rules of the devices in a batch.
CREATE INDEX rules_device_idx ON rules (device_id) WHERE is_active;
CREATE INDEX rules_company_idx ON rules (company_id);

CREATE TABLE rule_actions (
  id               bigserial PRIMARY KEY,
  company_id       bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  rule_id          bigint NOT NULL,
  position         smallint NOT NULL DEFAULT 0,
  type             text NOT NULL CHECK (type IN ('email', 'sms', 'voice_message', 'system', 'http', 'remote_control')),
  recipients       text[] NOT NULL DEFAULT '{}',  -- email addresses or phone numbers
  cc               text[] NOT NULL DEFAULT '{}',
  subject          text,                          -- email, system
  body             text,                          -- email, sms, system text, voice message
  voice_language   text,
  url              text,                          -- http
  http_method      text CHECK (http_method IN ('GET', 'POST', 'PUT')),
  -- remote_control: the command sent to target_device_id (a device of the same company)
  target_device_id bigint,
  command          text,
  command_params   jsonb NOT NULL DEFAULT '{}',   -- output number, seconds, minutes
  settings         jsonb NOT NULL DEFAULT '{}',   -- anything a channel needs beyond the columns
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (rule_id, company_id) REFERENCES rules (id, company_id) ON DELETE CASCADE,
  FOREIGN KEY (target_device_id, company_id) REFERENCES devices (id, company_id) ON DELETE CASCADE,
  CHECK (type <> 'remote_control' OR (target_device_id IS NOT NULL AND command IS NOT NULL)),
  CHECK (type <> 'http' OR url IS NOT NULL),
  CHECK (type NOT IN ('email', 'sms', 'voice_message') OR cardinality(recipients) > 0)
);
CREATE INDEX rule_actions_rule_idx ON rule_actions (rule_id, position);

ALTER TABLE downlinks
  ADD FOREIGN KEY (rule_id, company_id) REFERENCES rules (id, company_id) ON DELETE SET NULL (rule_id);

-- Virtual data fields: computed per device from a formula (restricted mathjs) and/or an aggregation
-- function, stored under the key 'virtual.<uuid>.<name>' when store is true.
CREATE TABLE virtual_data_fields (
  id          bigserial PRIMARY KEY,
  company_id  bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  device_id   bigint NOT NULL,
  uuid        uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  name        text NOT NULL,
  unit        text,
  formula     text,
  function    text CHECK (function IN ('count_up_hourly', 'count_up_daily', 'diff_to_last',
                                       'moving_average_hourly', 'moving_average_daily', 'sum_up')),
  mapping     jsonb NOT NULL DEFAULT '{}',        -- value mapping applied to the result
  store       boolean NOT NULL DEFAULT true,
  state       jsonb NOT NULL DEFAULT '{}',        -- running sums, last value, current hour or day bucket
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (device_id, name),
  FOREIGN KEY (device_id, company_id) REFERENCES devices (id, company_id) ON DELETE CASCADE,
  CHECK (formula IS NOT NULL OR function IS NOT NULL)
);
CREATE INDEX virtual_data_fields_company_idx ON virtual_data_fields (company_id);

-- Sensor checks: no data within a period, or a value outside plausible bounds.
CREATE TABLE sensor_checks (
  id                  bigserial PRIMARY KEY,
  company_id          bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  device_id           bigint NOT NULL,
  kind                text NOT NULL CHECK (kind IN ('no_data', 'implausible_value')),
  data_field          text,
  max_silence_seconds integer CHECK (max_silence_seconds > 0),
  min_value           double precision,
  max_value           double precision,
  is_active           boolean NOT NULL DEFAULT true,
  state               jsonb NOT NULL DEFAULT '{}',
  last_checked_at     timestamptz,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  UNIQUE (id, company_id),
  FOREIGN KEY (device_id, company_id) REFERENCES devices (id, company_id) ON DELETE CASCADE,
  CHECK (kind <> 'no_data' OR max_silence_seconds IS NOT NULL),
  CHECK (kind <> 'implausible_value' OR (data_field IS NOT NULL AND (min_value IS NOT NULL OR max_value IS NOT NULL))),
  CHECK (min_value IS NULL OR max_value IS NULL OR min_value <= max_value)
);
CREATE INDEX sensor_checks_device_idx ON sensor_checks (device_id) WHERE is_active;
CREATE INDEX sensor_checks_company_idx ON sensor_checks (company_id);

CREATE TABLE alarms (
  id               bigserial PRIMARY KEY,
  company_id       bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  device_id        bigint NOT NULL,
  rule_id          bigint,
  sensor_check_id  bigint,
  state            text NOT NULL DEFAULT 'raised' CHECK (state IN ('raised', 'acknowledged', 'cleared')),
  level            smallint NOT NULL DEFAULT 4 CHECK (level BETWEEN 0 AND 7), -- syslog severity, 4 warning
  data_field       text,
  value            double precision,              -- the value that raised it
  details          jsonb NOT NULL DEFAULT '{}',   -- condition, threshold and further values at the time
  message          text,
  raised_at        timestamptz NOT NULL DEFAULT now(),
  acknowledged_at  timestamptz,
  acknowledged_by  bigint REFERENCES users(id) ON DELETE SET NULL,
  cleared_at       timestamptz,
  FOREIGN KEY (device_id, company_id) REFERENCES devices (id, company_id) ON DELETE CASCADE,
  FOREIGN KEY (rule_id, company_id) REFERENCES rules (id, company_id) ON DELETE SET NULL (rule_id),
  FOREIGN KEY (sensor_check_id, company_id) REFERENCES sensor_checks (id, company_id)
    ON DELETE SET NULL (sensor_check_id),
  CHECK (state <> 'cleared' OR cleared_at IS NOT NULL),
  CHECK (state <> 'acknowledged' OR acknowledged_at IS NOT NULL)
);
-- GET /core/devices/alarms polls the open alarms of a company.
CREATE INDEX alarms_open_idx ON alarms (company_id, raised_at DESC) WHERE state <> 'cleared';
CREATE INDEX alarms_device_idx ON alarms (device_id, raised_at DESC);
-- One open alarm per rule or check and device: two workers raising the same alarm at once collide here.
CREATE UNIQUE INDEX alarms_open_rule_key ON alarms (rule_id, device_id)
  WHERE state <> 'cleared' AND rule_id IS NOT NULL;
CREATE UNIQUE INDEX alarms_open_check_key ON alarms (sensor_check_id, device_id)
  WHERE state <> 'cleared' AND sensor_check_id IS NOT NULL;

-- System messages shown in the console (system action, platform notices).
CREATE TABLE messages (
  id          bigserial PRIMARY KEY,
  company_id  bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  user_id     bigint REFERENCES users(id) ON DELETE CASCADE, -- NULL: for every user of the company
  subject     text NOT NULL,
  body        text NOT NULL DEFAULT '',
  level       smallint NOT NULL DEFAULT 6 CHECK (level BETWEEN 0 AND 7),
  is_read     boolean NOT NULL DEFAULT false,
  read_at     timestamptz,
  device_id   bigint REFERENCES devices(id) ON DELETE SET NULL,
  rule_id     bigint REFERENCES rules(id) ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX messages_company_idx ON messages (company_id, is_read, created_at DESC);

-- Every notification the notifier handled, one row per channel and recipient; counts firings for max
-- actions and shows delivery in the console.
CREATE TABLE notification_log (
  id              bigserial PRIMARY KEY,
  company_id      bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  rule_id         bigint REFERENCES rules(id) ON DELETE SET NULL,
  rule_action_id  bigint REFERENCES rule_actions(id) ON DELETE SET NULL,
  alarm_id        bigint REFERENCES alarms(id) ON DELETE SET NULL,
  device_id       bigint REFERENCES devices(id) ON DELETE SET NULL,
  channel         text NOT NULL CHECK (channel IN ('system', 'email', 'remote_control', 'sms', 'voice_message', 'http')),
  recipient       text,
  status          text NOT NULL CHECK (status IN ('queued', 'sent', 'failed', 'skipped')),
  error           text,
  details         jsonb NOT NULL DEFAULT '{}',
  idempotency_key text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  sent_at         timestamptz
);
CREATE INDEX notification_log_company_idx ON notification_log (company_id, created_at DESC);
CREATE INDEX notification_log_rule_idx ON notification_log (rule_id, created_at DESC);

-- Idempotency keys of queue jobs (notifier and workers): a job inserts its key before its side effect;
-- a repeat finds the key and skips. Platform table, not tenant-owned; expired keys are purged.
CREATE TABLE job_keys (
  key          text PRIMARY KEY,
  job_name     text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  result       jsonb,
  expires_at   timestamptz NOT NULL DEFAULT now() + INTERVAL '7 days'
);
CREATE INDEX job_keys_expires_idx ON job_keys (expires_at);
