import { type Db, withTenant } from '@iot/db';
import { coalesce } from '@iot/runtime';
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

/** JSON for a jsonb parameter: jsonb refuses \u0000, which a provider's error text may carry. */
function jsonParam(value: unknown): string {
  return JSON.stringify(value).replace(/(?<!\\)((?:\\\\)*)\\u0000/g, '$1');
}

export type NotificationLogWriter = (entry: NotificationLogEntry) => Promise<void>;

/**
 * One row per delivery attempt and recipient: the record of who was notified of what, and what a job
 * that runs again reads to skip the recipients it already reached (load-action.ts; max actions are
 * counted in the rule's state by the rules worker, not here). Entries of jobs finishing at once share
 * one statement per company (coalesce), written as that tenant; each caller resolves once its row is
 * committed.
 */
export function createNotificationLogWriter(db: Db): NotificationLogWriter {
  return coalesce<NotificationLogEntry, void>(
    async (entries) => {
      const byCompany = new Map<number, NotificationLogEntry[]>();
      for (const entry of entries) {
        const list = byCompany.get(entry.companyId) ?? [];
        list.push(entry);
        byCompany.set(entry.companyId, list);
      }
      for (const [companyId, list] of byCompany) {
        // Rows keep the rule, action, alarm and device they were written for as recorded, without foreign
        // keys to them (migration 0017): no key checks, and no locks on the rows the rules worker holds.
        await withTenant(db, companyId, (tx) =>
          tx.query(
            `INSERT INTO notification_log (company_id, rule_id, rule_action_id, alarm_id, device_id, channel, recipient,
               status, error, details, idempotency_key, sent_at)
             SELECT $2::bigint, e.rule_id, e.rule_action_id, e.alarm_id, e.device_id, e.channel, e.recipient,
                    e.status, e.error, e.details, e.idempotency_key, CASE WHEN e.status = 'sent' THEN now() END
               FROM jsonb_to_recordset($1::jsonb) AS e(rule_id bigint, rule_action_id bigint, alarm_id bigint,
                    device_id bigint, channel text, recipient text, status text, error text, details jsonb,
                    idempotency_key text)`,
            [
              jsonParam(
                list.map((entry) => ({
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
          ),
        );
      }
      return entries.map(() => undefined);
    },
    { maxBatch: 500 },
  );
}
