/**
 * Devices a member shares with its water association (nwa_shared_devices, migration 0036), and the meter
 * readings of a shared device. Every read here runs inside withTenant: the share policies
 * (nwa_share_read on devices, device_current, device_series, device_readings and the share table) decide what another
 * company sees, nothing in these statements widens it.
 */
import type { Queryable } from '../db';

export interface SharedDeviceRecord {
  nwaId: number;
  deviceId: number;
  ownerCompanyId: number;
  name: string;
  access: 'read' | 'control';
  dataField: string;
  unit: 'm3' | 'l';
  meterFactor: number;
  countsAgainstCompanyId: number | null;
  latitude: number | null;
  longitude: number | null;
  lastValue: number | null;
  lastReadingAt: Date | null;
  sharedAt: Date;
}

interface SharedDeviceRow {
  nwa_id: number;
  device_id: number;
  owner_id: number;
  name: string;
  access: 'read' | 'control';
  data_field: string;
  unit: 'm3' | 'l';
  meter_factor: number;
  counts_against: number | null;
  latitude: number | null;
  longitude: number | null;
  last_value: number | null;
  last_at: Date | null;
  created_at: Date;
}

const SELECT_SHARED = `SELECT s.nwa_company_id::int AS nwa_id, s.device_id::int AS device_id,
    s.company_id::int AS owner_id, d.name, s.access, s.data_field, s.unit, s.meter_factor,
    s.counts_against_company_id::int AS counts_against, d.latitude, d.longitude,
    CASE WHEN jsonb_typeof(c.data -> s.data_field) = 'number' THEN (c.data ->> s.data_field)::double precision END
      AS last_value,
    c.updated_at AS last_at, s.created_at
  FROM nwa_shared_devices s
  JOIN devices d ON d.id = s.device_id AND d.company_id = s.company_id
  LEFT JOIN device_current c ON c.device_id = s.device_id AND c.company_id = s.company_id`;

function toShared(r: SharedDeviceRow): SharedDeviceRecord {
  return {
    nwaId: r.nwa_id,
    deviceId: r.device_id,
    ownerCompanyId: r.owner_id,
    name: r.name,
    access: r.access,
    dataField: r.data_field,
    unit: r.unit,
    meterFactor: r.meter_factor,
    countsAgainstCompanyId: r.counts_against,
    latitude: r.latitude,
    longitude: r.longitude,
    lastValue: r.last_value,
    lastReadingAt: r.last_at ? new Date(r.last_at) : null,
    sharedAt: new Date(r.created_at),
  };
}

/** The association's shared devices the acting company sees. */
export async function listSharedDevices(q: Queryable, nwaId: number): Promise<SharedDeviceRecord[]> {
  const { rows } = await q.query<SharedDeviceRow>(
    `${SELECT_SHARED} WHERE s.nwa_company_id = $1 ORDER BY d.name, s.device_id`,
    [nwaId],
  );
  return rows.map(toShared);
}

export async function findSharedDevice(
  q: Queryable,
  nwaId: number,
  deviceId: number,
): Promise<SharedDeviceRecord | null> {
  const { rows } = await q.query<SharedDeviceRow>(
    `${SELECT_SHARED} WHERE s.nwa_company_id = $1 AND s.device_id = $2`,
    [nwaId, deviceId],
  );
  return rows[0] ? toShared(rows[0]) : null;
}

/** The associations one of the owner's devices is shared with. */
export async function listDeviceShares(
  q: Queryable,
  ownerId: number,
  deviceId: number,
): Promise<SharedDeviceRecord[]> {
  const { rows } = await q.query<SharedDeviceRow>(
    `${SELECT_SHARED} WHERE s.company_id = $1 AND s.device_id = $2 ORDER BY s.nwa_company_id`,
    [ownerId, deviceId],
  );
  return rows.map(toShared);
}

/** Shares (or re-shares with another access) a device; it counts against its owner until edited. */
export async function upsertDeviceShare(
  q: Queryable,
  share: { nwaId: number; ownerId: number; deviceId: number; access: 'read' | 'control'; userId: number },
): Promise<void> {
  await q.query(
    `INSERT INTO nwa_shared_devices (nwa_company_id, company_id, device_id, access, shared_by, counts_against_company_id)
     VALUES ($1, $2, $3, $4, $5, $2)
     ON CONFLICT (nwa_company_id, device_id) DO UPDATE SET access = EXCLUDED.access, shared_by = EXCLUDED.shared_by`,
    [share.nwaId, share.ownerId, share.deviceId, share.access, share.userId],
  );
}

export async function deleteDeviceShare(
  q: Queryable,
  nwaId: number,
  ownerId: number,
  deviceId: number,
): Promise<boolean> {
  const { rows } = await q.query(
    `DELETE FROM nwa_shared_devices WHERE nwa_company_id = $1 AND company_id = $2 AND device_id = $3
     RETURNING id`,
    [nwaId, ownerId, deviceId],
  );
  return rows.length > 0;
}

/** The association's usage settings of a shared device (tenant_isolation: the association writes). */
export async function updateSharedDeviceUsage(
  q: Queryable,
  nwaId: number,
  deviceId: number,
  usage: { countsAgainstCompanyId: number | null; unit: 'm3' | 'l'; meterFactor: number; dataField: string },
): Promise<boolean> {
  const { rows } = await q.query(
    `UPDATE nwa_shared_devices SET counts_against_company_id = $3, unit = $4, meter_factor = $5, data_field = $6
      WHERE nwa_company_id = $1 AND device_id = $2 RETURNING id`,
    [nwaId, deviceId, usage.countsAgainstCompanyId, usage.unit, usage.meterFactor, usage.dataField],
  );
  return rows.length > 0;
}

export interface MeterReading {
  at: Date;
  value: number;
}

/**
 * The cumulative counter of a shared device between two instants, oldest first (numeric values of
 * `dataField` only). Row-level security admits the rows only through the share.
 */
export async function readMeterReadings(
  q: Queryable,
  device: { ownerCompanyId: number; deviceId: number; dataField: string },
  from: Date,
  to: Date,
): Promise<MeterReading[]> {
  const { rows } = await q.query<{ at: Date; value: number }>(
    `SELECT r.created_at AS at, coalesce(r.narrow[p.pos]::text::float8, r.wide[p.pos]) AS value
       FROM (SELECT s.id, array_position(s.fields, $3::text) AS pos FROM device_series s
              WHERE s.company_id = $1 AND s.device_id = $2) p
       JOIN device_readings r ON r.series = p.id
      WHERE r.created_at >= $4 AND r.created_at < $5
        AND coalesce(r.narrow[p.pos]::text::float8, r.wide[p.pos]) IS NOT NULL
        AND NOT coalesce(jsonb_typeof(r.extra -> $3::text) = 'boolean', false)
      ORDER BY r.created_at`,
    [device.ownerCompanyId, device.deviceId, device.dataField, from, to],
  );
  return rows.map((r) => ({ at: new Date(r.at), value: Number(r.value) }));
}
