import { type Db, insertNotificationLogEntries, withTenant } from '@iot/db';
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
        await withTenant(db, companyId, (tx) =>
          insertNotificationLogEntries(
            tx,
            companyId,
            list.map(({ companyId: _companyId, ...entry }) => entry),
          ),
        );
      }
      return entries.map(() => undefined);
    },
    { maxBatch: 500 },
  );
}
