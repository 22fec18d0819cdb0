/**
 * GET /core/devices/{id}/notifications: what the device's rules sent, to whom, and how it went, newest
 * first: one entry per delivery attempt and recipient, as the notifier logged it (notification_log,
 * apps/notifier/src/notification-log.ts). With the device log (why a rule fired or was suppressed) it
 * answers an operator's question "why did I not get the alarm mail?": not fired, not sent yet, failed
 * and retried, or kept in the outbox because no provider is configured.
 *
 * Readable by every user of the company, like the device log and the rules themselves (their recipients
 * included). Two things are left out on purpose: message bodies (the outbox, managers only, holds them)
 * and an http action's query string and credentials, which often carry a webhook's secret.
 */

import type { DataRange, Db } from '@iot/db';
import { deviceExists, listDeviceNotificationLog, type NotificationLogRecord, withTenant } from '@iot/db';
import { apiError } from '../lib/errors';
import type { AuthContext } from '../types';

export const NOTIFICATION_STATUSES = ['queued', 'sent', 'failed', 'skipped'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

export interface DeviceNotification {
  id: number;
  device_id: number;
  rule_id: number | null;
  /** Null when the rule has been deleted since (the entry keeps its id, migration 0017). */
  rule_name: string | null;
  alarm_id: number | null;
  channel: string;
  /** Email addresses, a phone number, `system`, an http action's URL (origin and path) or `device:<id>`. */
  recipient: string | null;
  /** queued: kept in the outbox (no provider configured); sent: handed over; failed; skipped: channel not configured. */
  status: NotificationStatus;
  error: string | null;
  /** How it went out: smtp, outbox, twilio, mqtt or the LoRaWAN server, where the channel says. */
  via: string | null;
  /** The provider's id of the message (a Twilio SID), once sent. */
  reference: string | null;
  attempt: number | null;
  max_attempts: number | null;
  /** A failure that ends the job: no further attempt follows. */
  final: boolean;
  created_at: string;
  sent_at: string | null;
}

/** An http action's URL without its query, fragment and credentials (they often hold a webhook's secret). */
export function withoutSecrets(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    // Not a URL the notifier could have called: show nothing of it rather than something secret.
    return '';
  }
}

const text = (value: unknown) => (typeof value === 'string' ? value : null);
const count = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) ? value : null);

function present(row: NotificationLogRecord): DeviceNotification {
  const details = row.details ?? {};
  return {
    id: row.id,
    device_id: row.deviceId,
    rule_id: row.ruleId,
    rule_name: row.ruleName,
    alarm_id: row.alarmId,
    channel: row.channel,
    recipient: row.channel === 'http' && row.recipient ? withoutSecrets(row.recipient) : row.recipient,
    status: row.status,
    error: row.error,
    via: text(details.via),
    reference: text(details.reference),
    attempt: count(details.attempt),
    max_attempts: count(details.maxAttempts),
    // The notifier marks the failure that ends its job: permanent, or the last attempt (dead letter).
    final: row.status === 'failed' && details.final === true,
    created_at: row.createdAt.toISOString(),
    sent_at: row.sentAt?.toISOString() ?? null,
  };
}

export async function listNotificationsOfDevice(
  db: Db,
  auth: AuthContext,
  deviceId: number,
  options: { status?: NotificationStatus; range?: Partial<DataRange>; limit: number },
): Promise<DeviceNotification[]> {
  const rows = await withTenant(db, auth.companyId, async (tx) => {
    if (!(await deviceExists(tx, auth.companyId, deviceId))) throw apiError('DEVICE_NOT_FOUND');
    return listDeviceNotificationLog(tx, auth.companyId, deviceId, {
      ...(options.status === undefined ? {} : { status: options.status }),
      ...(options.range?.from === undefined ? {} : { from: options.range.from }),
      ...(options.range?.to === undefined ? {} : { to: options.range.to }),
      limit: options.limit,
    });
  });
  return rows.map(present);
}
