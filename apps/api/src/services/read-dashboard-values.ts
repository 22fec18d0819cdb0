/**
 * What the dashboard's widgets live on: the latest values of many devices in one call (table widget,
 * GET /core/devices/current) and the compact positions of every device (map widget,
 * GET /core/devices/positions). Both read only the acting company's devices: ids of other companies are
 * answered exactly like unknown ids (listed under `missing`), so nothing of theirs, not even whether an id
 * exists, leaks, and one device removed from the company does not break a whole widget.
 */
import type { Db } from '@iot/db/db';
import { listDevicePositions, readCurrentValuesOfDevices } from '@iot/db/repositories/dashboards';
import { withTenant } from '@iot/db/tenant';
import { isStale } from '@iot/domain';
import type { AuthContext } from '../types';
import type { CurrentValues } from './read-current-values';

export interface ManyCurrentValues {
  devices: CurrentValues[];
  /** Asked ids that are not devices of the acting company. */
  missing: number[];
}

export async function readCurrentValuesOfMany(
  db: Db,
  auth: AuthContext,
  deviceIds: readonly number[],
  fields: readonly string[] | null,
  now: Date = new Date(),
): Promise<ManyCurrentValues> {
  const ids = [...new Set(deviceIds)];
  const rows = await withTenant(db, auth.companyId, (tx) =>
    readCurrentValuesOfDevices(tx, auth.companyId, ids, fields),
  );
  const found = new Set(rows.map((r) => r.deviceId));
  const devices = rows.map((r): CurrentValues => {
    const fieldTimes: Record<string, string | null> = {};
    const stale: Record<string, boolean> = {};
    for (const name of Object.keys(r.data)) {
      const time = r.fieldTimes[name] ?? r.updatedAt?.toISOString() ?? null;
      fieldTimes[name] = time;
      stale[name] = isStale(time, now);
    }
    return {
      device_id: r.deviceId,
      updated_at: r.updatedAt ? r.updatedAt.toISOString() : null,
      data: r.data,
      field_times: fieldTimes,
      stale,
      geo: r.latitude !== null && r.longitude !== null ? [r.latitude, r.longitude] : null,
    };
  });
  return { devices, missing: ids.filter((id) => !found.has(id)).sort((a, b) => a - b) };
}

export interface DevicePosition {
  id: number;
  name: string;
  latitude: number;
  longitude: number;
  state: string;
  is_active: boolean;
  battery_level: number | null;
  mains_powered: boolean;
  last_online_at: string | null;
  group_id: number | null;
  value?: unknown;
}

export async function listCompanyDevicePositions(
  db: Db,
  auth: AuthContext,
  options: { deviceIds?: readonly number[]; groupId?: number; dataField?: string },
): Promise<DevicePosition[]> {
  const rows = await withTenant(db, auth.companyId, (tx) => listDevicePositions(tx, auth.companyId, options));
  return rows.map((r) => {
    const p: DevicePosition = {
      id: r.id,
      name: r.name,
      latitude: r.latitude,
      longitude: r.longitude,
      state: r.state,
      is_active: r.isActive,
      battery_level: r.batteryLevel,
      mains_powered: r.mainsPowered,
      last_online_at: r.lastOnlineAt ? r.lastOnlineAt.toISOString() : null,
      group_id: r.groupId,
    };
    if (options.dataField !== undefined) p.value = r.value ?? null;
    return p;
  });
}
