/**
 * One device for the console and the API: its details, edits, credentials and reassignment.
 * Every call takes the acting company and filters by it; a device of another company is simply absent.
 * The one cross-tenant write is `reassignDevice`, which the super admin runs outside withTenant.
 */
import type { Queryable } from '../db';
import { DEVICE_STATUS_COLUMNS } from './device-current';
import { type DeviceListRecord, type DeviceRow, LIST_COLUMNS, LIST_FROM, toListRecord } from './device-list';

/** One device with what the details drawer needs beyond the list row. */
export interface DeviceRecord extends DeviceListRecord {
  codecId: number | null;
  credentialsSet: boolean;
  deviceDetails: Record<string, unknown>;
  deviceInfo: Record<string, unknown>;
  rulesCount: number;
}

interface DeviceDetailRow extends DeviceRow {
  codec_id: number | null;
  credentials_set: boolean;
  device_details: Record<string, unknown> | null;
  device_info: Record<string, unknown> | null;
  rules_count: number;
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
  /** A codec of the same company (the composite foreign key refuses any other). */
  codecId?: number | null;
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
  codecId: 'codec_id',
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
  /** Links between a virtual device and its inputs (migration 0028) across the moving device. */
  virtualDeviceInputs: number;
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
    // A virtual device reads only its own company's devices: a moving input leaves the old company's
    // virtual devices (their other inputs go on computing), a moving virtual device leaves its inputs.
    virtualDeviceInputs: await count(
      `DELETE FROM virtual_device_inputs
        WHERE company_id = $1 AND (input_device_id = $2 OR virtual_device_id = $2)`,
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
  // The bay (its label and readings) is the old company's car park, like the parking area itself.
  await count('DELETE FROM parking_bays WHERE company_id = $1 AND device_id = $2');
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
