/**
 * GET /core/data/{id}/current: the latest value of each field (device_current) with its time and a stale
 * flag (older than 8 hours, spec section 4, via the domain's isStale). A device without data yet answers
 * empty maps: the drawer shows "no data" per field rather than an error toast.
 */
import type { Db } from '@iot/db';
import { deviceExists, readCurrentValues, withTenant } from '@iot/db';
import { isStale } from '@iot/domain';
import { apiError } from '../lib/errors';
import type { AuthContext } from '../types';

export interface CurrentValues {
  device_id: number;
  updated_at: string | null;
  data: Record<string, unknown>;
  field_times: Record<string, string | null>;
  stale: Record<string, boolean>;
  geo: [number, number] | null;
}

export async function readDeviceCurrentValues(
  db: Db,
  auth: AuthContext,
  deviceId: number,
  fields: string[] | null,
  now: Date = new Date(),
): Promise<CurrentValues> {
  const current = await withTenant(db, auth.companyId, async (tx) => {
    if (!(await deviceExists(tx, auth.companyId, deviceId))) throw apiError('DEVICE_NOT_FOUND');
    return readCurrentValues(tx, auth.companyId, deviceId);
  });
  const names = (fields ?? Object.keys(current?.data ?? {})).filter((f) => current && f in current.data);
  const data: Record<string, unknown> = {};
  const fieldTimes: Record<string, string | null> = {};
  const stale: Record<string, boolean> = {};
  for (const name of names) {
    data[name] = current?.data[name];
    const time = current?.fieldTimes[name] ?? current?.updatedAt.toISOString() ?? null;
    fieldTimes[name] = time;
    stale[name] = isStale(time, now);
  }
  return {
    device_id: deviceId,
    updated_at: current ? current.updatedAt.toISOString() : null,
    data,
    field_times: fieldTimes,
    stale,
    geo:
      current && current.latitude !== null && current.longitude !== null
        ? [current.latitude, current.longitude]
        : null,
  };
}
