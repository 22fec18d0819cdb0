-- A rule's action that could not be carried out at all must reach a person: an alarm mail the mail server
-- refused, an SMS the provider would not take, a webhook that never answered, a command to a relay or valve
-- that no broker or network server took. The notifier retries with backoff; when it gives up it writes the
-- last attempt's notification_log row with `details.deadLetter = true` (apps/notifier handle-notify-action).
-- This trigger then writes one system message for the company (kind `action_failed`), in the same
-- transaction, so no channel or code path that gives up can forget to tell anyone.
--
-- One unread message per rule action at a time: while the company has not read the last one, further
-- failures of the same action add none (a mail server that is down for an hour would otherwise write a
-- message per alarm). System messages themselves are left out: the message about a message that could
-- not be written would fail the same way.
--
-- As with `downlink_failed` (migration 0023), the console words the message in the reader's language from
-- `params`; subject and body are English for other API clients. Names are read within the row's company.
CREATE FUNCTION notification_log_announce_dead_letter() RETURNS trigger
  LANGUAGE plpgsql
  AS $fn$
BEGIN
  IF EXISTS (SELECT 1 FROM messages m
              WHERE m.company_id = NEW.company_id AND m.kind = 'action_failed' AND NOT m.is_read
                AND m.params->>'action_id' = NEW.rule_action_id::text) THEN
    RETURN NULL;
  END IF;
  INSERT INTO messages (company_id, subject, body, level, device_id, rule_id, kind, params)
  SELECT NEW.company_id,
         'Action not carried out: ' || coalesce(r.name, 'rule ' || NEW.rule_id),
         NEW.channel || ' to ' || coalesce(target.name, NEW.recipient) || ': ' || coalesce(NEW.error, 'failed'),
         3, -- error (syslog severity, as device log levels)
         d.id, r.id, 'action_failed',
         jsonb_build_object('action_id', NEW.rule_action_id, 'rule', r.name, 'device', d.name,
                            'channel', NEW.channel, 'recipient', coalesce(target.name, NEW.recipient),
                            'command', a.command, 'error', NEW.error,
                            'attempts', (NEW.details->>'attempt')::int)
    FROM (SELECT 1) one
    LEFT JOIN rules r ON r.id = NEW.rule_id AND r.company_id = NEW.company_id
    LEFT JOIN devices d ON d.id = NEW.device_id AND d.company_id = NEW.company_id
    LEFT JOIN rule_actions a ON a.id = NEW.rule_action_id AND a.company_id = NEW.company_id
    LEFT JOIN devices target ON target.id = a.target_device_id AND target.company_id = NEW.company_id
                            AND NEW.channel = 'remote_control';
  RETURN NULL;
END
$fn$;

CREATE TRIGGER notification_log_announce_dead_letter
  AFTER INSERT ON notification_log
  FOR EACH ROW WHEN (NEW.status = 'failed' AND NEW.channel <> 'system'
                     AND NEW.details->>'deadLetter' = 'true')
  EXECUTE FUNCTION notification_log_announce_dead_letter();
