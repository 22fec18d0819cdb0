-- SMS and voice calls beside the mail outbox: without a Twilio account (the embedded default) the notifier
-- keeps each SMS and call here instead of failing it into the dead-letter list, and the console shows them
-- with the outbox mail; with Twilio configured, each one handed over is recorded too, with sent_at and the
-- Twilio SID (reference), and a refused one with its error.
--
-- One row per action job (idempotency_key), channel and number: a job that runs again after a crash updates
-- its row instead of adding a second one.
CREATE TABLE outbox_phone_messages (
  id              bigserial PRIMARY KEY,
  company_id      bigint NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  channel         text NOT NULL CHECK (channel IN ('sms', 'voice')),
  recipient       text NOT NULL,                 -- E.164, +4915228817386
  body            text NOT NULL,                 -- the SMS text or the message spoken on the call
  voice_language  text,                          -- BCP 47 language of the call, de-DE
  device_id       bigint,
  rule_id         bigint,
  idempotency_key text NOT NULL,
  reference       text,                          -- Twilio Message or Call SID once sent
  sent_at         timestamptz,
  error           text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (idempotency_key, channel, recipient),
  FOREIGN KEY (device_id, company_id) REFERENCES devices (id, company_id) ON DELETE SET NULL (device_id),
  FOREIGN KEY (rule_id, company_id) REFERENCES rules (id, company_id) ON DELETE SET NULL (rule_id)
);
CREATE INDEX outbox_phone_messages_company_idx ON outbox_phone_messages (company_id, created_at DESC);

SELECT app_enable_tenant_rls('outbox_phone_messages');
