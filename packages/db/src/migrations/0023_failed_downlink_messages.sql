-- A command that left for a LoRaWAN network server and then failed must reach a person: a valve that did
-- not close or a relay that did not switch is worth an alert, and nobody watches the command history for
-- hours. A `downlinks` row moves from `sent` to `failed` when the network server reports the failure
-- (storage writer: ChirpStack's ack that timed out, The Things Stack's downlink_failed) or when no report
-- came in time (expireUnansweredDownlinks, the rules worker's timer). Whichever path moves it, this
-- trigger writes one system message for every user of the device's company, in the same transaction.
--
-- The message's text is the platform's, not a user's, so it carries a kind and its parameters beside the
-- English subject and body: the console words it in the reader's language (messages.kind.*), other API
-- clients read subject and body.
ALTER TABLE messages ADD COLUMN kind text, ADD COLUMN params jsonb;

CREATE FUNCTION downlinks_announce_failure() RETURNS trigger
  LANGUAGE plpgsql
  AS $fn$
BEGIN
  INSERT INTO messages (company_id, subject, body, level, device_id, rule_id, kind, params)
  SELECT NEW.company_id,
         'Command not delivered: ' || d.name,
         NEW.command || ': ' || coalesce(NEW.error, 'failed'),
         3, -- error (syslog severity, as device log levels)
         NEW.device_id, NEW.rule_id, 'downlink_failed',
         jsonb_build_object('downlink_id', NEW.id, 'device', d.name, 'command', NEW.command,
                            'error', NEW.error, 'sent_at', NEW.sent_at, 'by_rule', NEW.rule_id IS NOT NULL)
    FROM devices d
   WHERE d.id = NEW.device_id AND d.company_id = NEW.company_id;
  RETURN NULL;
END
$fn$;

CREATE TRIGGER downlinks_announce_failure
  AFTER UPDATE OF state ON downlinks
  FOR EACH ROW WHEN (OLD.state = 'sent' AND NEW.state = 'failed')
  EXECUTE FUNCTION downlinks_announce_failure();
