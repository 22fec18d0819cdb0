/**
 * The record of who was notified of what (notification_log): one row per delivery attempt and recipient.
 * The notifier writes it and reads it back to skip the recipients a job already reached; the API lists a
 * device's entries (GET /core/devices/{id}/notifications).
 */
import type { Queryable } from '../db';

export type NotificationStatus = 'queued' | 'sent' | 'failed' | 'skipped';

export interface NotificationLogEntry {
  ruleId: number | null;
  ruleActionId: number | null;
  alarmId: number | null;
  deviceId: number | null;
  channel: string;
  recipient: string;
  status: NotificationStatus;
  error: string | null;
  details: Record<string, unknown>;
  idempotencyKey: string;
}

export interface NotificationLogRecord {
  id: number;
  deviceId: number;
  ruleId: number | null;
  /** Null when the rule has been deleted since (the entry keeps its id, migration 0017). */
  ruleName: string | null;
  alarmId: number | null;
  channel: string;
  recipient: string | null;
  status: NotificationStatus;
  error: string | null;
  details: Record<string, unknown> | null;
  createdAt: Date;
  sentAt: Date | null;
}

/** JSON for a jsonb parameter: jsonb refuses \u0000, which a provider's error text may carry. */
function jsonParam(value: unknown): string {
  return JSON.stringify(value).replace(/(?<!\\)((?:\\\\)*)\\u0000/g, '$1');
}

/**
 * Entries of `companyId` in one statement. Rows keep the rule, action, alarm and device they were written
 * for as recorded, without foreign keys to them (migration 0017): no key checks, and no locks on the rows
 * the rules worker holds.
 */
export async function insertNotificationLogEntries(
  q: Queryable,
  companyId: number,
  entries: readonly NotificationLogEntry[],
): Promise<void> {
  await q.query(
    `INSERT INTO notification_log (company_id, rule_id, rule_action_id, alarm_id, device_id, channel, recipient,
       status, error, details, idempotency_key, sent_at)
     SELECT $2::bigint, e.rule_id, e.rule_action_id, e.alarm_id, e.device_id, e.channel, e.recipient,
            e.status, e.error, e.details, e.idempotency_key, CASE WHEN e.status = 'sent' THEN now() END
       FROM jsonb_to_recordset($1::jsonb) AS e(rule_id bigint, rule_action_id bigint, alarm_id bigint,
            device_id bigint, channel text, recipient text, status text, error text, details jsonb,
            idempotency_key text)`,
    [
      jsonParam(
        entries.map((entry) => ({
          rule_id: entry.ruleId,
          rule_action_id: entry.ruleActionId,
          alarm_id: entry.alarmId,
          device_id: entry.deviceId,
          channel: entry.channel,
          recipient: entry.recipient,
          status: entry.status,
          error: entry.error,
          details: entry.details,
          idempotency_key: entry.idempotencyKey,
        })),
      ),
      companyId,
    ],
  );
}

/**
 * A device's entries, newest first, optionally of one status and within [from, to). The rule is joined
 * within the company: the entry keeps a deleted rule's id, and ids are never reused.
 */
export async function listDeviceNotificationLog(
  q: Queryable,
  companyId: number,
  deviceId: number,
  options: { status?: NotificationStatus; from?: Date; to?: Date; limit: number },
): Promise<NotificationLogRecord[]> {
  const params: unknown[] = [companyId, deviceId];
  const where = ['n.company_id = $1', 'n.device_id = $2'];
  if (options.status !== undefined) {
    params.push(options.status);
    where.push(`n.status = $${params.length}`);
  }
  if (options.from !== undefined) {
    params.push(options.from);
    where.push(`n.created_at >= $${params.length}`);
  }
  if (options.to !== undefined) {
    params.push(options.to);
    where.push(`n.created_at < $${params.length}`);
  }
  params.push(options.limit);
  // notification_log_device_idx (migration 0020) answers the filter and the order.
  const { rows } = await q.query<{
    id: number;
    device_id: number;
    rule_id: number | null;
    rule_name: string | null;
    alarm_id: number | null;
    channel: string;
    recipient: string | null;
    status: NotificationStatus;
    error: string | null;
    details: Record<string, unknown> | null;
    created_at: Date;
    sent_at: Date | null;
  }>(
    `SELECT n.id::int AS id, n.device_id::int AS device_id, n.rule_id::int AS rule_id, r.name AS rule_name,
            n.alarm_id::int AS alarm_id, n.channel, n.recipient, n.status, n.error, n.details, n.created_at,
            n.sent_at
       FROM notification_log n
       LEFT JOIN rules r ON r.id = n.rule_id AND r.company_id = n.company_id
      WHERE ${where.join(' AND ')}
      ORDER BY n.created_at DESC, n.id DESC
      LIMIT $${params.length}`,
    params,
  );
  return rows.map((r) => ({
    id: r.id,
    deviceId: r.device_id,
    ruleId: r.rule_id,
    ruleName: r.rule_name,
    alarmId: r.alarm_id,
    channel: r.channel,
    recipient: r.recipient,
    status: r.status,
    error: r.error,
    details: r.details,
    createdAt: r.created_at,
    sentAt: r.sent_at,
  }));
}
