/**
 * Parking areas of a company and the devices that feed them (migrations 0004, 0033): GET/POST
 * /parking/areas, PUT/DELETE /parking/areas/{id}. Every call takes the acting company; another company's
 * area is simply absent. The counts (free, occupied, unknown) are written by the rules worker
 * (parking-readings.ts), never here.
 */
import type { Queryable } from '../db';
import { jsonParam } from './json-param';

export interface ParkingBayRecord {
  deviceId: number;
  deviceUuid: string;
  deviceName: string;
  label: string | null;
  occupied: boolean | null;
  reportedCount: number | null;
  statusSince: Date | null;
  readingAt: Date | null;
  overstayAlarmId: number | null;
}

export interface ParkingAreaFields {
  name: string;
  description: string | null;
  type: 'FIX' | 'AI';
  capacity: number;
  areaSizeM2: number | null;
  maxParkingMinutes: number | null;
  graceMinutes: number;
  icon: 'PS' | 'TP' | 'PU' | 'PG';
  latitude: number | null;
  longitude: number | null;
  geometry: Record<string, unknown> | null;
  validFrom: string | null;
  validTo: string | null;
  alertFreeBelow: number | null;
  alertCooldownMinutes: number;
}

export interface ParkingAreaRecord extends ParkingAreaFields {
  id: number;
  companyId: number;
  uuid: string;
  freeSlots: number | null;
  occupiedSlots: number;
  unknownSlots: number;
  reportedCount: number | null;
  countWarning: 'above_capacity' | 'negative' | null;
  countsUpdatedAt: Date | null;
  bays: ParkingBayRecord[];
  createdAt: Date;
  updatedAt: Date;
}

interface AreaRow {
  id: number;
  company_id: number;
  uuid: string;
  name: string;
  description: string | null;
  type: 'FIX' | 'AI';
  capacity: number;
  area_size_m2: number | null;
  max_parking_minutes: number | null;
  grace_minutes: number;
  icon: 'PS' | 'TP' | 'PU' | 'PG';
  latitude: number | null;
  longitude: number | null;
  geometry: Record<string, unknown> | null;
  valid_from: string | null;
  valid_to: string | null;
  alert_free_below: number | null;
  alert_cooldown_minutes: number;
  free_slots: number | null;
  occupied_slots: number;
  unknown_slots: number;
  reported_count: number | null;
  count_warning: 'above_capacity' | 'negative' | null;
  counts_updated_at: Date | null;
  created_at: Date;
  updated_at: Date;
  bays: BayJson[] | null;
}

interface BayJson {
  device_id: number;
  device_uuid: string;
  device_name: string;
  label: string | null;
  occupied: boolean | null;
  reported_count: number | null;
  status_since: string | null;
  reading_at: string | null;
  overstay_alarm_id: number | null;
}

const toDate = (s: string | null) => (s === null ? null : new Date(s));

// One statement per list: the bays come as a JSON array from a grouped subquery.
const SELECT_AREAS = `SELECT a.id::int AS id, a.company_id::int AS company_id, a.uuid::text AS uuid, a.name,
    a.description, a.type, a.capacity, a.area_size_m2, a.max_parking_minutes, a.grace_minutes, a.icon,
    a.latitude, a.longitude, a.geometry, a.valid_from::text AS valid_from, a.valid_to::text AS valid_to,
    a.alert_free_below, a.alert_cooldown_minutes, a.free_slots, a.occupied_slots, a.unknown_slots,
    a.reported_count, a.count_warning, a.counts_updated_at, a.created_at, a.updated_at, b.bays
  FROM parking_areas a
  LEFT JOIN (
    SELECT pb.area_id, jsonb_agg(jsonb_build_object(
             'device_id', pb.device_id, 'device_uuid', d.uuid, 'device_name', d.name, 'label', pb.label, 'occupied', pb.occupied,
             'reported_count', pb.reported_count, 'status_since', pb.status_since, 'reading_at', pb.reading_at,
             'overstay_alarm_id', pb.overstay_alarm_id)
           ORDER BY lower(coalesce(pb.label, d.name)), pb.device_id) AS bays
      FROM parking_bays pb JOIN devices d ON d.id = pb.device_id AND d.company_id = pb.company_id
     WHERE pb.company_id = $1 GROUP BY pb.area_id
  ) b ON b.area_id = a.id
  WHERE a.company_id = $1`;

function toRecord(row: AreaRow): ParkingAreaRecord {
  return {
    id: row.id,
    companyId: row.company_id,
    uuid: row.uuid,
    name: row.name,
    description: row.description,
    type: row.type,
    capacity: row.capacity,
    areaSizeM2: row.area_size_m2,
    maxParkingMinutes: row.max_parking_minutes,
    graceMinutes: row.grace_minutes,
    icon: row.icon,
    latitude: row.latitude,
    longitude: row.longitude,
    geometry: row.geometry,
    validFrom: row.valid_from,
    validTo: row.valid_to,
    alertFreeBelow: row.alert_free_below,
    alertCooldownMinutes: row.alert_cooldown_minutes,
    freeSlots: row.free_slots,
    occupiedSlots: row.occupied_slots,
    unknownSlots: row.unknown_slots,
    reportedCount: row.reported_count,
    countWarning: row.count_warning,
    countsUpdatedAt: row.counts_updated_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    bays: (row.bays ?? []).map((b) => ({
      deviceId: Number(b.device_id),
      deviceUuid: b.device_uuid,
      deviceName: b.device_name,
      label: b.label,
      occupied: b.occupied,
      reportedCount: b.reported_count,
      statusSince: toDate(b.status_since),
      readingAt: toDate(b.reading_at),
      overstayAlarmId: b.overstay_alarm_id === null ? null : Number(b.overstay_alarm_id),
    })),
  };
}

/** The company's areas sorted by name (case-insensitive), then id. */
export async function listParkingAreas(q: Queryable, companyId: number): Promise<ParkingAreaRecord[]> {
  const { rows } = await q.query<AreaRow>(`${SELECT_AREAS} ORDER BY lower(a.name), a.id`, [companyId]);
  return rows.map(toRecord);
}

export async function findParkingArea(
  q: Queryable,
  companyId: number,
  id: number,
): Promise<ParkingAreaRecord | null> {
  const { rows } = await q.query<AreaRow>(`${SELECT_AREAS} AND a.id = $2`, [companyId, id]);
  const row = rows[0];
  return row ? toRecord(row) : null;
}

const COLUMNS = [
  ['name', (f: ParkingAreaFields) => f.name],
  ['description', (f: ParkingAreaFields) => f.description],
  ['type', (f: ParkingAreaFields) => f.type],
  ['capacity', (f: ParkingAreaFields) => f.capacity],
  ['area_size_m2', (f: ParkingAreaFields) => f.areaSizeM2],
  ['max_parking_minutes', (f: ParkingAreaFields) => f.maxParkingMinutes],
  ['grace_minutes', (f: ParkingAreaFields) => f.graceMinutes],
  ['icon', (f: ParkingAreaFields) => f.icon],
  ['latitude', (f: ParkingAreaFields) => f.latitude],
  ['longitude', (f: ParkingAreaFields) => f.longitude],
  ['geometry', (f: ParkingAreaFields) => (f.geometry === null ? null : jsonParam(f.geometry))],
  ['valid_from', (f: ParkingAreaFields) => f.validFrom],
  ['valid_to', (f: ParkingAreaFields) => f.validTo],
  ['alert_free_below', (f: ParkingAreaFields) => f.alertFreeBelow],
  ['alert_cooldown_minutes', (f: ParkingAreaFields) => f.alertCooldownMinutes],
] as const;

export async function insertParkingArea(
  q: Queryable,
  companyId: number,
  fields: ParkingAreaFields,
): Promise<number> {
  const names = COLUMNS.map(([name]) => name);
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO parking_areas (company_id, ${names.join(', ')})
     VALUES ($1, ${names.map((_, i) => `$${i + 2}`).join(', ')}) RETURNING id::int AS id`,
    [companyId, ...COLUMNS.map(([, get]) => get(fields))],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('insert into parking_areas returned no row');
  return id;
}

/** Writes every field; false when the company has no such area. */
export async function updateParkingArea(
  q: Queryable,
  companyId: number,
  id: number,
  fields: ParkingAreaFields,
): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE parking_areas SET ${COLUMNS.map(([name], i) => `${name} = $${i + 3}`).join(', ')}, updated_at = now()
      WHERE company_id = $1 AND id = $2`,
    [companyId, id, ...COLUMNS.map(([, get]) => get(fields))],
  );
  return rowCount > 0;
}

/** Serialises the company's parking writes (assignments are checked, then written). */
export async function lockCompanyParking(q: Queryable, companyId: number): Promise<void> {
  await q.query('SELECT pg_advisory_xact_lock(4502, $1::int)', [companyId]);
}

export interface ParkingDeviceCandidate {
  id: number;
  sensorType: number | null;
  /** The area it feeds now, if any. */
  areaId: number | null;
}

/** Of `ids`, the company's devices with their sensor type and current area. */
export async function parkingDeviceCandidates(
  q: Queryable,
  companyId: number,
  ids: readonly number[],
): Promise<ParkingDeviceCandidate[]> {
  if (ids.length === 0) return [];
  const { rows } = await q.query<{ id: number; sensor_type: number | null; area_id: number | null }>(
    `SELECT d.id::int AS id, d.sensor_type, pb.area_id::int AS area_id
       FROM devices d LEFT JOIN parking_bays pb ON pb.device_id = d.id
      WHERE d.company_id = $1 AND d.id = ANY($2::bigint[])`,
    [companyId, ids],
  );
  return rows.map((r) => ({ id: r.id, sensorType: r.sensor_type, areaId: r.area_id }));
}

/**
 * Makes `bays` exactly the area's devices: others are removed (their open stays end, their overstay
 * alarms clear), listed ones keep their readings and take the new label, new ones start unknown. The
 * caller has checked that every device is the company's, a parking sensor and in no other area.
 */
export async function setParkingBays(
  q: Queryable,
  companyId: number,
  areaId: number,
  bays: readonly { deviceId: number; label: string | null }[],
): Promise<void> {
  const ids = bays.map((b) => b.deviceId);
  await q.query(
    `UPDATE alarms SET state = 'cleared', cleared_at = now()
      WHERE company_id = $1 AND state <> 'cleared' AND id IN (
        SELECT overstay_alarm_id FROM parking_bays
         WHERE company_id = $1 AND area_id = $2 AND NOT (device_id = ANY($3::bigint[])))`,
    [companyId, areaId, ids],
  );
  await q.query(
    `UPDATE parking_stays SET ended_at = now()
      WHERE company_id = $1 AND area_id = $2 AND ended_at IS NULL AND NOT (device_id = ANY($3::bigint[]))`,
    [companyId, areaId, ids],
  );
  await q.query(
    'DELETE FROM parking_bays WHERE company_id = $1 AND area_id = $2 AND NOT (device_id = ANY($3::bigint[]))',
    [companyId, areaId, ids],
  );
  await q.query(
    `UPDATE devices SET parking_area_id = NULL, updated_at = now()
      WHERE company_id = $1 AND parking_area_id = $2 AND NOT (id = ANY($3::bigint[]))`,
    [companyId, areaId, ids],
  );
  if (bays.length === 0) return;
  // Labels move in two steps so swapping two labels does not trip the unique index halfway.
  await q.query('UPDATE parking_bays SET label = NULL WHERE company_id = $1 AND area_id = $2', [
    companyId,
    areaId,
  ]);
  await q.query(
    `INSERT INTO parking_bays (device_id, company_id, area_id, label)
     SELECT r.device_id, $1, $2, r.label FROM jsonb_to_recordset($3::jsonb) AS r(device_id bigint, label text)
     ON CONFLICT (device_id) DO UPDATE SET label = EXCLUDED.label`,
    [companyId, areaId, jsonParam(bays.map((b) => ({ device_id: b.deviceId, label: b.label })))],
  );
  await q.query(
    `UPDATE devices SET parking_area_id = $2, updated_at = now()
      WHERE company_id = $1 AND id = ANY($3::bigint[]) AND parking_area_id IS DISTINCT FROM $2`,
    [companyId, areaId, ids],
  );
}

/**
 * Deletes the area: its bays, stays and counts go with it (foreign keys), its devices stay, without an
 * area, and open overstay alarms clear. False when the company has no such area.
 */
export async function deleteParkingArea(q: Queryable, companyId: number, id: number): Promise<boolean> {
  await setParkingBays(q, companyId, id, []);
  const { rowCount } = await q.query('DELETE FROM parking_areas WHERE company_id = $1 AND id = $2', [
    companyId,
    id,
  ]);
  return rowCount > 0;
}

export interface ParkingCountSampleRow {
  at: Date;
  capacity: number;
  free_slots: number | null;
  occupied_slots: number;
  unknown_slots: number;
}

/** The area's recorded counts within [from, to), led by the last one before `from` (the starting state). */
export async function listParkingCountSamples(
  q: Queryable,
  companyId: number,
  areaId: number,
  from: Date,
  to: Date,
): Promise<ParkingCountSampleRow[]> {
  const { rows } = await q.query<ParkingCountSampleRow>(
    `(SELECT at, capacity, free_slots, occupied_slots, unknown_slots FROM parking_area_counts
       WHERE company_id = $1 AND area_id = $2 AND at < $3 ORDER BY at DESC LIMIT 1)
     UNION ALL
     (SELECT at, capacity, free_slots, occupied_slots, unknown_slots FROM parking_area_counts
       WHERE company_id = $1 AND area_id = $2 AND at >= $3 AND at < $4 ORDER BY at LIMIT 100000)
     ORDER BY at`,
    [companyId, areaId, from, to],
  );
  return rows;
}

export interface ParkingStayStats {
  stays: number;
  avgMinutes: number | null;
  longestMinutes: number | null;
}

/** Stays that began within [from, to): how many, their average and longest length (open ones up to `to`). */
export async function parkingStayStats(
  q: Queryable,
  companyId: number,
  areaId: number,
  from: Date,
  to: Date,
): Promise<ParkingStayStats> {
  const { rows } = await q.query<{
    stays: number;
    avg_minutes: number | null;
    longest_minutes: number | null;
  }>(
    `SELECT count(*)::int AS stays,
            (avg(extract(epoch FROM least(coalesce(ended_at, $4), $4) - started_at)) / 60)::float8 AS avg_minutes,
            (max(extract(epoch FROM least(coalesce(ended_at, $4), $4) - started_at)) / 60)::float8 AS longest_minutes
       FROM parking_stays WHERE company_id = $1 AND area_id = $2 AND started_at >= $3 AND started_at < $4`,
    [companyId, areaId, from, to],
  );
  const r = rows[0];
  return {
    stays: r?.stays ?? 0,
    avgMinutes: r?.avg_minutes ?? null,
    longestMinutes: r?.longest_minutes ?? null,
  };
}
