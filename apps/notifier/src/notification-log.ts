import { type Db, withTenant } from '@iot/db';
import type { ChannelKind } from './context';

export interface NotificationLogEntry {
  companyId: number;
  ruleId: number | null;
  ruleActionId: number | null;
  alarmId: number | null;
  deviceId: number | null;
  channel: ChannelKind;
  recipient: string;
  status: 'queued' | 'sent' | 'failed' | 'skipped';
  error: string | null;
  details: Record<string, unknown>;
  idempotencyKey: string;
}

/** One row per delivery attempt and recipient: what the console shows and max actions count. */
export async function writeNotificationLog(db: Db, entry: NotificationLogEntry): Promise<void> {
  await withTenant(db, entry.companyId, (tx) =>
    tx.query(
      `INSERT INTO notification_log (company_id, rule_id, rule_action_id, alarm_id, device_id, channel, recipient,
         status, error, details, idempotency_key, sent_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, CASE WHEN $8 = 'sent' THEN now() END)`,
      [
        entry.companyId,
        entry.ruleId,
        entry.ruleActionId,
        entry.alarmId,
        entry.deviceId,
        entry.channel,
        entry.recipient,
        entry.status,
        entry.error,
        JSON.stringify(entry.details),
        entry.idempotencyKey,
      ],
    ),
  );
}

/**
 * Recipients of this key that need no further attempt: delivered (sent, queued in the outbox) or failed
 * for good. A retry of a job with several recipients resends only to the others.
 */
export async function settledRecipients(
  db: Db,
  companyId: number,
  idempotencyKey: string,
): Promise<Set<string>> {
  const { rows } = await withTenant(db, companyId, (tx) =>
    tx.query<{ recipient: string }>(
      `SELECT recipient FROM notification_log
       WHERE company_id = $1 AND idempotency_key = $2
         AND (status IN ('sent', 'queued') OR (status = 'failed' AND details->>'permanent' = 'true'))`,
      [companyId, idempotencyKey],
    ),
  );
  return new Set(rows.map((r) => r.recipient));
}
