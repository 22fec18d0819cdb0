/**
 * Devices repository for the console and the API (the ingestion path has its own, devices-ingest.ts).
 * Every call takes the acting company and filters by it; a device of another company is simply absent.
 * The one cross-tenant write is `reassignDevice`, which the super admin runs outside withTenant.
 */
import type { Queryable } from '../db';
import { DEVICE_STATUS_COLUMNS } from './devices-ingest';

export interface DeviceGroupRef {
  id: number;
  name: string;
}

/** One row of the device list: the device, its group and its latest values (device_current). */
export interface DeviceListRecord {
  id: number;
  companyId: number;
  uuid: string;
  name: string;
  description: string | null;
  comment: string | null;
  deviceType: string | null;
  driverId: string | null;
  serialNumber: string | null;
  devEui: string | null;
  state: string;
  isActive: boolean;
  externalAccessible: boolean;
  targetServer: string | null;
  batteryLevel: number | null;
  batteryVoltage: number | null;
  mainsPowered: boolean;
  lastOnlineAt: Date | null;
  signalStrength: number | null;
  rssi: number | null;
  snr: number | null;
  group: DeviceGroupRef | null;
  location: string | null;
  latitude: number | null;
  longitude: number | null;
  mobileDataVolume: number | null;
  sensorType: number | null;
  parkingAreaId: number | null;
  fieldId: number | null;
  metadata: Record<string, unknown>;
  /** Latest value per data field, with the time of each (device_current); empty before the first uplink. */
  current: Record<string, unknown>;
  fieldTimes: Record<string, string>;
  currentUpdatedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** One device with what the details drawer needs beyond the list row. */
export interface DeviceRecord extends DeviceListRecord {
  codecId: number | null;
  credentialsSet: boolean;
  deviceDetails: Record<string, unknown>;
  deviceInfo: Record<string, unknown>;
  rulesCount: number;
}

export const DEVICE_SORT_COLUMNS = [
  'id',
  'name',
  'state',
  'device_type',
  'serial_number',
  'last_online_at',
  'battery_level',
  'signal_strength',
  'group',
  'location',
  'created_at',
] as const;
export type DeviceSortColumn = (typeof DEVICE_SORT_COLUMNS)[number];

const SORT_SQL: Record<DeviceSortColumn, string> = {
  id: 'd.id',
  name: 'lower(d.name)',
  state: 'd.state',
  device_type: 'd.device_type',
  serial_number: 'd.serial_number',
  last_online_at: 'c.last_online_at',
  battery_level: 'c.battery_level',
  signal_strength: 'c.signal_strength',
  group: 'lower(g.name)',
  location: 'lower(d.location)',
  created_at: 'd.created_at',
};

/** A battery range in percent: `min < level <= max` (min null: from 0 inclusive). */
export interface BatteryRange {
  min: number | null;
  max: number | null;
}

export interface DeviceListFilter {
  /** Case-insensitive substring of name, serial number, UUID, DevEUI or location. */
  search?: string;
  /** Only these devices (the dashboard's table and chart ask for their few devices). */
  ids?: readonly number[];
  state?: string;
  groupId?: number;
  deviceType?: string;
  /** true: is_active devices only; false: the offline ones (is_active false). */
  active?: boolean;
  /** Devices last heard before this instant (never-heard devices are not stale: there is no data). */
  staleBefore?: Date;
  /** Battery level range, mains powered devices excluded; `'none'` = no battery value. */
  battery?: BatteryRange | 'none' | 'mains';
  fieldId?: number;
  parkingAreaId?: number;
  sort?: DeviceSortColumn;
  order?: 'asc' | 'desc';
  limit?: number;
  offset?: number;
}

interface DeviceRow {
  id: number;
  company_id: number;
  uuid: string;
  name: string;
  description: string | null;
  comment: string | null;
  device_type: string | null;
  driver_id: string | null;
  serial_number: string | null;
  dev_eui: string | null;
  state: string;
  is_active: boolean;
  external_accessible: boolean;
  target_server: string | null;
  battery_level: number | null;
  battery_voltage: number | null;
  mains_powered: boolean;
  last_online_at: Date | null;
  signal_strength: number | null;
  rssi: number | null;
  snr: number | null;
  group_id: number | null;
  group_name: string | null;
  location: string | null;
  latitude: number | null;
  longitude: number | null;
  mobile_data_volume: number | null;
  sensor_type: number | null;
  parking_area_id: number | null;
  field_id: number | null;
  metadata: Record<string, unknown> | null;
  current_data: Record<string, unknown> | null;
  field_times: Record<string, string> | null;
  current_updated_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

interface DeviceDetailRow extends DeviceRow {
  codec_id: number | null;
  credentials_set: boolean;
  device_details: Record<string, unknown> | null;
  device_info: Record<string, unknown> | null;
  rules_count: number;
}

// ids are cast in SQL so pg (strings for int8) and PGlite answer the same numbers.
const LIST_COLUMNS = `d.id::int AS id, d.company_id::int AS company_id, d.uuid::text AS uuid, d.name,
  d.description, d.comment, d.device_type, d.driver_id, d.serial_number, d.dev_eui, d.state,
  COALESCE(c.is_active, false) AS is_active,
  d.external_accessible, d.target_server, c.battery_level, c.battery_voltage, d.mains_powered,
  c.last_online_at, c.signal_strength::int AS signal_strength, c.rssi, c.snr, d.group_id::int AS group_id,
  g.name AS group_name, d.location, d.latitude, d.longitude, c.mobile_data_volume::float8 AS mobile_data_volume,
  d.sensor_type, d.parking_area_id::int AS parking_area_id, d.field_id::int AS field_id, d.metadata,
  c.data AS current_data, c.field_times, c.updated_at AS current_updated_at, d.created_at, d.updated_at`;

// The group and the latest values join on the company too, so they can only ever be the device's own.
const LIST_FROM = `devices d
  LEFT JOIN groups g ON g.id = d.group_id AND g.company_id = d.company_id
  LEFT JOIN device_current c ON c.device_id = d.id AND c.company_id = d.company_id`;

function toListRecord(row: DeviceRow): DeviceListRecord {
  return {
    id: row.id,
    companyId: row.company_id,
    uuid: row.uuid,
    name: row.name,
    description: row.description,
    comment: row.comment,
    deviceType: row.device_type,
    driverId: row.driver_id,
    serialNumber: row.serial_number,
    devEui: row.dev_eui,
    state: row.state,
    isActive: row.is_active,
    externalAccessible: row.external_accessible,
    targetServer: row.target_server,
    batteryLevel: row.battery_level,
    batteryVoltage: row.battery_voltage,
    mainsPowered: row.mains_powered,
    lastOnlineAt: row.last_online_at,
    signalStrength: row.signal_strength,
    rssi: row.rssi,
    snr: row.snr,
    group:
      row.group_id !== null && row.group_name !== null ? { id: row.group_id, name: row.group_name } : null,
    location: row.location,
    latitude: row.latitude,
    longitude: row.longitude,
    mobileDataVolume: row.mobile_data_volume,
    sensorType: row.sensor_type,
    parkingAreaId: row.parking_area_id,
    fieldId: row.field_id,
    metadata: row.metadata ?? {},
    current: row.current_data ?? {},
    fieldTimes: row.field_times ?? {},
    currentUpdatedAt: row.current_updated_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** `%` and `_` in the user's text are literal characters, not patterns. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The acting company's devices for the device table and the map, filtered and sorted in SQL: one
 * statement (devices + group + latest values), no per-device queries.
 */
type Param = (value: unknown) => string;

/**
 * The SQL of a filtered, sorted list: the columns and joins differ, the filter and order are one.
 * Columns may take parameters of their own, numbered after the filter's.
 */
function listSql(
  columns: string | ((param: Param) => string),
  from: string,
  companyId: number,
  filter: DeviceListFilter,
) {
  const params: unknown[] = [companyId];
  const where = ['d.company_id = $1'];
  const param: Param = (value) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (filter.ids !== undefined) where.push(`d.id = ANY(${param(filter.ids)}::bigint[])`);
  if (filter.search !== undefined && filter.search.trim() !== '') {
    const p = param(likePattern(filter.search.trim()));
    where.push(`(d.name ILIKE ${p} OR d.serial_number ILIKE ${p} OR d.uuid::text ILIKE ${p}
      OR d.dev_eui ILIKE ${p} OR d.location ILIKE ${p})`);
  }
  if (filter.state !== undefined) where.push(`d.state = ${param(filter.state)}`);
  if (filter.groupId !== undefined) where.push(`d.group_id = ${param(filter.groupId)}`);
  if (filter.deviceType !== undefined) where.push(`d.device_type = ${param(filter.deviceType)}`);
  if (filter.active !== undefined) where.push(`COALESCE(c.is_active, false) = ${param(filter.active)}`);
  if (filter.staleBefore !== undefined) where.push(`c.last_online_at < ${param(filter.staleBefore)}`);
  if (filter.fieldId !== undefined) where.push(`d.field_id = ${param(filter.fieldId)}`);
  if (filter.parkingAreaId !== undefined) where.push(`d.parking_area_id = ${param(filter.parkingAreaId)}`);
  if (filter.battery === 'mains') where.push('d.mains_powered');
  else if (filter.battery === 'none') where.push('NOT d.mains_powered AND c.battery_level IS NULL');
  else if (filter.battery !== undefined) {
    where.push('NOT d.mains_powered');
    const { min, max } = filter.battery;
    where.push(min === null ? 'c.battery_level >= 0' : `c.battery_level > ${param(min)}`);
    if (max !== null) where.push(`c.battery_level <= ${param(max)}`);
  }
  const order = filter.order === 'desc' ? 'DESC' : 'ASC';
  const sort = SORT_SQL[filter.sort ?? 'name'];
  const select = typeof columns === 'string' ? columns : columns(param);
  let sql = `SELECT ${select} FROM ${from} WHERE ${where.join(' AND ')}
    ORDER BY ${sort} ${order} NULLS LAST, d.id ${order}`;
  if (filter.limit !== undefined) sql += ` LIMIT ${param(filter.limit)}`;
  if (filter.offset !== undefined) sql += ` OFFSET ${param(filter.offset)}`;
  return { sql, params };
}

export async function listDevices(
  q: Queryable,
  companyId: number,
  filter: DeviceListFilter = {},
): Promise<DeviceListRecord[]> {
  const { sql, params } = listSql(LIST_COLUMNS, LIST_FROM, companyId, filter);
  const { rows } = await q.query<DeviceRow>(sql, params);
  return rows.map(toListRecord);
}

/**
 * The list's devices as a map draws them, as the JSON text of columns (index i of every array is one
 * device, in the list's order):
 * `{"count":n,"id":[..],"states":[..],"state":[..],"is_active":[..],"latitude":[..],"longitude":[..],"data":{field:[..]}}`
 * where `state` holds indexes into `states` (in order of first appearance), `is_active` is 1 or 0 and
 * `data` has, per asked field, each device's latest value (null without one).
 *
 * Built by the database in one statement and handed over as one text value: for 10,000 devices the
 * row-by-row form cost the server (PGlite's worker passing 10,000 row objects to the main thread, then a
 * loop and JSON.stringify there) 0.3 to 1.0 s under load; the answer is the same 273 kB either way.
 */
export async function listDevicePinColumnsJson(
  q: Queryable,
  companyId: number,
  filter: DeviceListFilter = {},
  dataFields: readonly string[] = [],
): Promise<string> {
  // device_current holds the latest values and the online flag every pin shows (migration 0015).
  const withData = dataFields.length > 0;
  const order = filter.order === 'desc' ? 'DESC' : 'ASC';
  // n numbers the rows in the list's order (the list's own ORDER BY, LIMIT and OFFSET stay as they are);
  // every column is aggregated by it.
  let fieldsParam = '';
  const { sql, params } = listSql(
    (param) => {
      if (withData) fieldsParam = param([...dataFields]);
      return `d.id::int AS id, d.state, COALESCE(c.is_active, false) AS is_active, d.latitude, d.longitude,
        ${withData ? 'c.data' : 'NULL::jsonb'} AS current_data,
        row_number() OVER (ORDER BY ${SORT_SQL[filter.sort ?? 'name']} ${order} NULLS LAST, d.id ${order}) AS n`;
    },
    LIST_FROM,
    companyId,
    filter,
  );
  // Arrays joined as text (string_agg), not json_agg: PostgreSQL writes json with a space after every
  // comma, a sixth more bytes here. Numbers print as JSON numbers (float8 at its shortest exact form),
  // strings go through to_json for their escaping, a missing value is null.
  const column = (value: string) => `'[' || COALESCE(string_agg(${value}, ',' ORDER BY p.n), '') || ']'`;
  const data = withData
    ? `(SELECT string_agg(to_json(f.name)::text || ':[' || COALESCE((SELECT string_agg(
           COALESCE((p.current_data -> f.name)::text, 'null'), ',' ORDER BY p.n) FROM p), '') || ']',
           ',' ORDER BY f.o)
         FROM unnest(${fieldsParam}::text[]) WITH ORDINALITY AS f(name, o))`
    : "''";
  const { rows } = await q.query<{ body: string }>(
    `WITH p AS MATERIALIZED (${sql}),
          s AS (SELECT state, (row_number() OVER (ORDER BY min(n)) - 1)::int AS i FROM p GROUP BY state)
     SELECT '{"count":' || count(*)
         || ',"id":' || ${column('p.id::text')}
         || ',"states":[' || COALESCE((SELECT string_agg(to_json(s.state)::text, ',' ORDER BY s.i) FROM s), '') || ']'
         || ',"state":' || ${column('s.i::text')}
         || ',"is_active":' || ${column("CASE WHEN p.is_active THEN '1' ELSE '0' END")}
         || ',"latitude":' || ${column("COALESCE(p.latitude::text, 'null')")}
         || ',"longitude":' || ${column("COALESCE(p.longitude::text, 'null')")}
         || ',"data":{' || COALESCE(${data}, '') || '}}' AS body
       FROM p JOIN s ON s.state = p.state`,
    params,
  );
  return rows[0]!.body;
}

/** One of the acting company's devices with details, or null (also for another company's id). */
export async function findDevice(q: Queryable, companyId: number, id: number): Promise<DeviceRecord | null> {
  const { rows } = await q.query<DeviceDetailRow>(
    `SELECT ${LIST_COLUMNS}, d.codec_id::int AS codec_id, d.credentials_hash IS NOT NULL AS credentials_set,
            d.device_details, d.device_info,
            (SELECT count(*) FROM rules r WHERE r.device_id = d.id AND r.company_id = d.company_id)::int
              AS rules_count
       FROM ${LIST_FROM}
      WHERE d.company_id = $1 AND d.id = $2`,
    [companyId, id],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    ...toListRecord(row),
    codecId: row.codec_id,
    credentialsSet: row.credentials_set,
    deviceDetails: row.device_details ?? {},
    deviceInfo: row.device_info ?? {},
    rulesCount: row.rules_count,
  };
}

/** Whether the acting company owns a device with this id (a cheap guard before data reads). */
export async function deviceExists(q: Queryable, companyId: number, id: number): Promise<boolean> {
  const { rows } = await q.query('SELECT 1 FROM devices WHERE company_id = $1 AND id = $2', [companyId, id]);
  return rows.length > 0;
}

/** Columns the console may change; undefined leaves a column as it is, null clears it. */
export interface DeviceChanges {
  name?: string;
  description?: string | null;
  comment?: string | null;
  location?: string | null;
  latitude?: number | null;
  longitude?: number | null;
  groupId?: number | null;
  targetServer?: string | null;
  externalAccessible?: boolean;
  isActive?: boolean;
  driverId?: string | null;
  state?: string;
  /** Merged into the stored metadata (top-level keys replaced). */
  metadata?: Record<string, unknown>;
}

const CHANGE_COLUMNS: Record<Exclude<keyof DeviceChanges, 'isActive'>, string> = {
  name: 'name',
  description: 'description',
  comment: 'comment',
  location: 'location',
  latitude: 'latitude',
  longitude: 'longitude',
  groupId: 'group_id',
  targetServer: 'target_server',
  externalAccessible: 'external_accessible',
  driverId: 'driver_id',
  state: 'state',
  metadata: 'metadata',
};

/** Applies `changes` to one of the company's devices; false when it has no such device. */
export async function updateDevice(
  q: Queryable,
  companyId: number,
  id: number,
  changes: DeviceChanges,
): Promise<boolean> {
  const params: unknown[] = [companyId, id];
  const sets = ['updated_at = now()'];
  for (const [key, column] of Object.entries(CHANGE_COLUMNS) as [keyof typeof CHANGE_COLUMNS, string][]) {
    const value = changes[key];
    if (value === undefined) continue;
    params.push(key === 'metadata' ? JSON.stringify(value) : value);
    // metadata merges top-level keys, so replacing data_fields keeps whatever else a device stores there.
    sets.push(
      key === 'metadata'
        ? `metadata = metadata || $${params.length}::jsonb`
        : `${column} = $${params.length}`,
    );
  }
  const { rowCount } = await q.query(
    `UPDATE devices SET ${sets.join(', ')} WHERE company_id = $1 AND id = $2`,
    params,
  );
  if (rowCount === 0) return false;
  // The online flag lives in device_current beside the status the storage writer keeps (migration
  // 0015); a device that never reported gets a row without values. The next uplink sets it again.
  if (changes.isActive !== undefined)
    await q.query(
      `INSERT INTO device_current (device_id, company_id, updated_at, is_active) VALUES ($2, $1, now(), $3)
       ON CONFLICT (device_id) DO UPDATE SET is_active = EXCLUDED.is_active`,
      [companyId, id, changes.isActive],
    );
  return true;
}

/** Stores the sha-256 of a new device token (the token itself is never stored). */
export async function setDeviceCredentialsHash(
  q: Queryable,
  companyId: number,
  id: number,
  credentialsHash: string,
): Promise<boolean> {
  const { rowCount } = await q.query(
    'UPDATE devices SET credentials_hash = $3, updated_at = now() WHERE company_id = $1 AND id = $2',
    [companyId, id, credentialsHash],
  );
  return rowCount > 0;
}

/** Whether the company has a group with this id (a device may only join its own company's groups). */
export async function groupExists(q: Queryable, companyId: number, groupId: number): Promise<boolean> {
  const { rows } = await q.query('SELECT 1 FROM groups WHERE company_id = $1 AND id = $2', [
    companyId,
    groupId,
  ]);
  return rows.length > 0;
}

/** What a reassignment removed from the old company, for the audit log. */
export interface ReassignmentSummary {
  rules: number;
  remoteControlActions: number;
  virtualDataFields: number;
  sensorChecks: number;
  alarms: number;
  downlinks: number;
  ttsDownlinkRoutes: number;
  nwaShares: number;
  nwaFlowRates: number;
  tasksUnlinked: number;
  currentValues: number;
}

/**
 * Hands a device to another company. Run it inside one transaction (`db.transaction`), as the owner
 * role: it writes rows of two companies. The schema's composite foreign keys refuse the move while any
 * configuration row of the old company points at the device, so this first removes them (they encode the
 * old owner's rules, alarms, shares and remote-control targets, which must not travel with the device),
 * unlinks the old company's tasks, drops the latest values (they are the old owner's data; measured history
 * and logs stay with the old company by their company_id) and clears the group, field, parking area and
 * codec, which belong to the old company. Returns null when `fromCompanyId` has no such device.
 */
export async function reassignDevice(
  tx: Queryable,
  fromCompanyId: number,
  id: number,
  toCompanyId: number,
): Promise<ReassignmentSummary | null> {
  const { rows } = await tx.query('SELECT 1 FROM devices WHERE company_id = $1 AND id = $2 FOR UPDATE', [
    fromCompanyId,
    id,
  ]);
  if (rows.length === 0) return null;
  const count = async (sql: string) => (await tx.query(sql, [fromCompanyId, id])).rowCount;
  // The latest values go; the status they held is handed over below.
  const dropped = await tx.query<Record<string, unknown>>(
    `DELETE FROM device_current WHERE company_id = $1 AND device_id = $2
     RETURNING ${DEVICE_STATUS_COLUMNS.join(', ')}`,
    [fromCompanyId, id],
  );
  const summary: ReassignmentSummary = {
    remoteControlActions: await count(
      'DELETE FROM rule_actions WHERE company_id = $1 AND target_device_id = $2',
    ),
    alarms: await count('DELETE FROM alarms WHERE company_id = $1 AND device_id = $2'),
    rules: await count('DELETE FROM rules WHERE company_id = $1 AND device_id = $2'),
    virtualDataFields: await count(
      'DELETE FROM virtual_data_fields WHERE company_id = $1 AND device_id = $2',
    ),
    sensorChecks: await count('DELETE FROM sensor_checks WHERE company_id = $1 AND device_id = $2'),
    downlinks: await count('DELETE FROM downlinks WHERE company_id = $1 AND device_id = $2'),
    // The old owner's TTS application and its key (migration 0022) stay behind.
    ttsDownlinkRoutes: await count(
      'DELETE FROM tts_downlink_routes WHERE company_id = $1 AND device_id = $2',
    ),
    nwaShares: await count('DELETE FROM nwa_shared_devices WHERE company_id = $1 AND device_id = $2'),
    nwaFlowRates: await count('DELETE FROM nwa_max_flow_rates WHERE company_id = $1 AND device_id = $2'),
    tasksUnlinked: await count('UPDATE tasks SET device_id = NULL WHERE company_id = $1 AND device_id = $2'),
    currentValues: dropped.rowCount,
  };
  await tx.query(
    `UPDATE devices SET company_id = $3, group_id = NULL, field_id = NULL, parking_area_id = NULL,
            codec_id = NULL, updated_at = now()
      WHERE company_id = $1 AND id = $2`,
    [fromCompanyId, id, toCompanyId],
  );
  // The device's status (online, last online, battery, signal) describes the hardware, not the old
  // owner's data: it goes with the device, in a row without values (migration 0015 keeps it in
  // device_current).
  const status = dropped.rows[0];
  if (status) {
    await tx.query(
      `INSERT INTO device_current (device_id, company_id, updated_at, ${DEVICE_STATUS_COLUMNS.join(', ')})
       VALUES ($1, $2, COALESCE($3::timestamptz, now()), ${DEVICE_STATUS_COLUMNS.map((_, i) => `$${i + 3}`).join(', ')})`,
      [id, toCompanyId, ...DEVICE_STATUS_COLUMNS.map((column) => status[column])],
    );
  }
  return summary;
}

export interface DeviceLogRecord {
  id: number;
  deviceId: number;
  level: number;
  message: string;
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
    payload: unknown;
    raw: Uint8Array | null;
    created_at: Date;
  }>(
    `SELECT id::int AS id, device_id::int AS device_id, level::int AS level, message, payload, raw, created_at
       FROM device_logs WHERE ${where.join(' AND ')}
      ORDER BY created_at DESC, id DESC LIMIT $${params.length}`,
    params,
  );
  return rows.map((row) => ({
    id: row.id,
    deviceId: row.device_id,
    level: row.level,
    message: row.message,
    payload: row.payload,
    raw: row.raw,
    createdAt: row.created_at,
  }));
}
