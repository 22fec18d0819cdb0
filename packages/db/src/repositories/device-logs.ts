/**
 * Device logs (device_logs): the entries the storage writer (decode failures) and the rules worker
 * (firings, suppressions, alarms) write, the notify jobs recorded with firings, and the console's read.
 */
import type { Queryable } from '../db';
import { jsonParam } from './json-param';

export interface DeviceLogRow {
  device_id: number;
  company_id: number;
  /** Syslog severity 0..7 (3 error, 4 warning). */
  level: number;
  /** The English text, for readers that do not word `kind` (and the rows before migration 0040). */
  message: string;
  /** The text's kind in SERVER_TEXTS (@iot/domain) and its parameters: worded in the reader's language. */
  kind?: string | null;
  params?: Record<string, unknown> | null;
  payload: unknown;
  /** Raw bytes as base64, or null. */
  raw: string | null;
  /** ISO time. */
  created_at: string;
}

/**
 * Device log entries: a batch's decode failures with their raw bytes and decoder warnings (storage
 * writer), and what the rules worker decided. device_logs has no foreign keys (migration 0016): the join
 * leaves out entries of a device that no longer exists, and the lock on each device (what the key check
 * took) makes a deletion at the same time wait for this transaction, whose entries its trigger then
 * deletes too.
 */
export async function insertDeviceLogRows(q: Queryable, rows: readonly DeviceLogRow[]): Promise<void> {
  if (rows.length === 0) return;
  await q.query(
    `INSERT INTO device_logs (device_id, company_id, level, message, kind, params, payload, raw, created_at)
       SELECT r.device_id, r.company_id, r.level, r.message, r.kind, r.params, r.payload, decode(r.raw, 'base64'),
              r.created_at
         FROM jsonb_to_recordset($1::jsonb) AS r(device_id bigint, company_id bigint, level smallint, message text,
              kind text, params jsonb, payload jsonb, raw text, created_at timestamptz)
         JOIN devices d ON d.id = r.device_id
          FOR KEY SHARE OF d`,
    [jsonParam(rows)],
  );
}

/**
 * The notify jobs recorded with the firings of the given uplinks (device log entries of kind
 * `rule_fired`, written in the same transaction as the firing): the worker's outbox, read back when a
 * batch it already committed is delivered again, so jobs lost between commit and enqueue go out.
 */
export async function findRecordedJobs(
  q: Queryable,
  uplinks: readonly { deviceId: number; companyId: number; messageId: string }[],
): Promise<unknown[]> {
  if (uplinks.length === 0) return [];
  const { rows } = await q.query<{ job: unknown }>(
    `SELECT jsonb_array_elements(l.payload->'jobs') AS job
       FROM jsonb_to_recordset($1::jsonb) AS p(device_id bigint, company_id bigint, message_id text)
       JOIN device_logs l ON l.device_id = p.device_id AND l.company_id = p.company_id
      WHERE l.payload->>'kind' = 'rule_fired' AND l.payload->>'messageId' = p.message_id`,
    [
      jsonParam(
        uplinks.map((u) => ({ device_id: u.deviceId, company_id: u.companyId, message_id: u.messageId })),
      ),
    ],
  );
  return rows.map((row) => row.job);
}

/** Notify jobs of firings logged since `since` (start-up sweep after a crash between commit and enqueue). */
export async function findRecordedJobsSince(q: Queryable, since: Date): Promise<unknown[]> {
  const { rows } = await q.query<{ job: unknown }>(
    `SELECT jsonb_array_elements(l.payload->'jobs') AS job
       FROM device_logs l
      WHERE l.created_at >= $1 AND l.level = 5 AND l.payload->>'kind' = 'rule_fired'`,
    [since.toISOString()],
  );
  return rows.map((row) => row.job);
}

export interface DeviceLogRecord {
  id: number;
  deviceId: number;
  level: number;
  message: string;
  /** null for entries written before migration 0040 (then `message` is the text). */
  kind: string | null;
  params: Record<string, unknown> | null;
  payload: unknown;
  raw: Uint8Array | null;
  createdAt: Date;
}

export interface DeviceLogQuery {
  /** Numeric levels to show (all when absent). */
  levels?: readonly number[];
  from?: Date;
  to?: Date;
  limit: number;
}

/** A device's log, newest first (index device_logs (device_id, created_at DESC)). */
export async function listDeviceLogs(
  q: Queryable,
  companyId: number,
  deviceId: number,
  query: DeviceLogQuery,
): Promise<DeviceLogRecord[]> {
  const params: unknown[] = [companyId, deviceId];
  const where = ['company_id = $1', 'device_id = $2'];
  if (query.levels !== undefined) {
    params.push(query.levels);
    where.push(`level = ANY($${params.length}::smallint[])`);
  }
  if (query.from !== undefined) {
    params.push(query.from);
    where.push(`created_at >= $${params.length}`);
  }
  if (query.to !== undefined) {
    params.push(query.to);
    where.push(`created_at < $${params.length}`);
  }
  params.push(query.limit);
  const { rows } = await q.query<{
    id: number;
    device_id: number;
    level: number;
    message: string;
    kind: string | null;
    params: Record<string, unknown> | null;
    payload: unknown;
    raw: Uint8Array | null;
    created_at: Date;
  }>(
    `SELECT id::int AS id, device_id::int AS device_id, level::int AS level, message, kind, params, payload, raw,
            created_at
       FROM device_logs WHERE ${where.join(' AND ')}
      ORDER BY created_at DESC, id DESC LIMIT $${params.length}`,
    params,
  );
  return rows.map((row) => ({
    id: row.id,
    deviceId: row.device_id,
    level: row.level,
    message: row.message,
    kind: row.kind,
    params: row.params,
    payload: row.payload,
    raw: row.raw,
    createdAt: row.created_at,
  }));
}
