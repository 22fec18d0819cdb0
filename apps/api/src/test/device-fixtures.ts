/**
 * Devices, data rows, latest values and logs for API tests, written straight into the database (the
 * ingestion path is another app). Every helper takes the owning company.
 */
import { randomBytes } from 'node:crypto';
import { DEVICE_STATUS_COLUMNS, type Queryable } from '@iot/db';

export interface DeviceFixture {
  id: number;
  uuid: string;
  serialNumber: string;
}

const STATUS_COLUMNS = new Set<string>(DEVICE_STATUS_COLUMNS);

/**
 * A device with the given columns; status columns (last_online_at, battery_level, ...) go to its
 * device_current row, where the storage writer keeps them (migration 0015).
 */
export async function createDevice(
  q: Queryable,
  companyId: number,
  columns: Record<string, unknown> = {},
): Promise<DeviceFixture> {
  const own = Object.entries(columns).filter(([key]) => !STATUS_COLUMNS.has(key));
  const status = Object.entries(columns).filter(([key]) => STATUS_COLUMNS.has(key));
  const { rows } = await insertRow<{ id: number; uuid: string; serial_number: string }>(
    q,
    'devices',
    {
      name: `Device ${randomBytes(3).toString('hex')}`,
      serial_number: `SN-${randomBytes(6).toString('hex')}`,
      ...Object.fromEntries(own),
      company_id: companyId,
    },
    'id::int AS id, uuid::text AS uuid, serial_number',
  );
  const row = rows[0]!;
  if (status.length > 0)
    await insertRow(
      q,
      'device_current',
      {
        ...Object.fromEntries(status),
        device_id: row.id,
        company_id: companyId,
        updated_at: columns.last_online_at ?? new Date(),
      },
      'device_id',
    );
  return { id: row.id, uuid: row.uuid, serialNumber: row.serial_number };
}

async function insertRow<T>(q: Queryable, table: string, values: Record<string, unknown>, returning: string) {
  const keys = Object.keys(values);
  const params = keys.map((k) => {
    const v = values[k];
    return v !== null && typeof v === 'object' && !(v instanceof Date) ? JSON.stringify(v) : v;
  });
  return q.query<T>(
    `INSERT INTO ${table} (${keys.join(', ')}) VALUES (${keys.map((_, i) => `$${i + 1}`).join(', ')})
     RETURNING ${returning}`,
    params,
  );
}

export async function createGroup(q: Queryable, companyId: number, name = 'Group'): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    'INSERT INTO groups (company_id, name) VALUES ($1, $2) RETURNING id::int AS id',
    [companyId, name],
  );
  return rows[0]!.id;
}

export interface DataRowFixture {
  at: Date;
  data: Record<string, unknown>;
  latitude?: number;
  longitude?: number;
  metalabel?: string;
}

/** Inserts data rows in batches of 1000 (one statement each, jsonb built from a text array). */
export async function insertData(
  q: Queryable,
  companyId: number,
  deviceId: number,
  rows: readonly DataRowFixture[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) {
    const batch = rows.slice(i, i + 1000);
    await q.query(
      `INSERT INTO device_data (device_id, company_id, created_at, data, latitude, longitude, metalabel)
       SELECT $1, $2, t.at, t.data::jsonb, t.lat, t.lng, t.label
         FROM unnest($3::timestamptz[], $4::text[], $5::float8[], $6::float8[], $7::text[])
              AS t(at, data, lat, lng, label)`,
      [
        deviceId,
        companyId,
        batch.map((r) => r.at.toISOString()),
        batch.map((r) => JSON.stringify(r.data)),
        batch.map((r) => r.latitude ?? null),
        batch.map((r) => r.longitude ?? null),
        batch.map((r) => r.metalabel ?? null),
      ],
    );
  }
}

export async function setCurrent(
  q: Queryable,
  companyId: number,
  deviceId: number,
  data: Record<string, unknown>,
  fieldTimes: Record<string, string>,
  updatedAt: Date,
): Promise<void> {
  await q.query(
    `INSERT INTO device_current (device_id, company_id, data, field_times, updated_at)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (device_id) DO UPDATE SET data = EXCLUDED.data, field_times = EXCLUDED.field_times,
       updated_at = EXCLUDED.updated_at`,
    [deviceId, companyId, JSON.stringify(data), JSON.stringify(fieldTimes), updatedAt],
  );
}

export async function insertLog(
  q: Queryable,
  companyId: number,
  deviceId: number,
  level: number,
  message: string,
  at: Date,
): Promise<void> {
  await q.query(
    'INSERT INTO device_logs (device_id, company_id, level, message, created_at) VALUES ($1, $2, $3, $4, $5)',
    [deviceId, companyId, level, message, at],
  );
}

/** A rule of the device with no actions, for rows that name it (notification log, alarms). */
export async function insertRule(
  q: Queryable,
  companyId: number,
  deviceId: number,
  name: string,
): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO rules (company_id, device_id, name, data_field, operator, value)
     VALUES ($1, $2, $3, 'temperature', 'gte', 8) RETURNING id::int AS id`,
    [companyId, deviceId, name],
  );
  return rows[0]!.id;
}

/** A notification_log row as the notifier writes it (apps/notifier/src/jobs/handle-notify-action.ts). */
export async function insertNotification(
  q: Queryable,
  row: {
    companyId: number;
    deviceId: number;
    ruleId?: number | null;
    channel: string;
    recipient: string;
    status: 'queued' | 'sent' | 'failed' | 'skipped';
    error?: string | null;
    details?: Record<string, unknown>;
    at: Date;
  },
): Promise<void> {
  await q.query(
    `INSERT INTO notification_log (company_id, device_id, rule_id, channel, recipient, status, error, details,
       idempotency_key, created_at, sent_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, CASE WHEN $6 = 'sent' THEN $10::timestamptz END)`,
    [
      row.companyId,
      row.deviceId,
      row.ruleId ?? null,
      row.channel,
      row.recipient,
      row.status,
      row.error ?? null,
      JSON.stringify(row.details ?? {}),
      `test:${row.deviceId}:${row.at.getTime()}:${row.recipient}`,
      row.at,
    ],
  );
}
