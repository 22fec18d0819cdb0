/**
 * What the dashboard's widgets live on: the latest values of many devices in one call (table widget,
 * GET /core/devices/current) and the compact positions of every device (map widget,
 * GET /core/devices/positions). Both read only the acting company's devices: ids of other companies are
 * answered exactly like unknown ids (listed under `missing`), so nothing of theirs, not even whether an id
 * exists, leaks, and one device removed from the company does not break a whole widget.
 */
import type { Db } from '@iot/db';
import {
  type DevicePositionFilter,
  listDevicePositionsJson,
  readCurrentValuesOfDevices,
  withTenant,
} from '@iot/db';
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

/** The map's positions as JSON array text (items: DevicePositionRecord of @iot/db), sent as it is. */
export function listCompanyDevicePositionsJson(
  db: Db,
  auth: AuthContext,
  options: DevicePositionFilter,
): Promise<string> {
  return withTenant(db, auth.companyId, (tx) => listDevicePositionsJson(tx, auth.companyId, options));
}
