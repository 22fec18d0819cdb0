/**
 * GET /core/devices/{id}/mobile-data: the SIM's data volume of the current billing period
 * (devices.mobile_data_volume) and its history, kept in device data as the field `mobile_data_volume`.
 */
import type { DataRange, Db } from '@iot/db';
import { findDevice, withTenant } from '@iot/db';
import { apiError } from '../lib/errors';
import type { AuthContext } from '../types';
import { type DeviceSeries, readDeviceSeries } from './read-device-data';

export async function readMobileData(
  db: Db,
  auth: AuthContext,
  deviceId: number,
  options: { range: DataRange; maxPoints?: number },
): Promise<{ device_id: number; mobile_data_volume: number | null; history: DeviceSeries }> {
  const device = await withTenant(db, auth.companyId, (tx) => findDevice(tx, auth.companyId, deviceId));
  if (!device) throw apiError('DEVICE_NOT_FOUND');
  const history = await readDeviceSeries(db, auth, deviceId, {
    fields: ['mobile_data_volume'],
    range: options.range,
    ...(options.maxPoints === undefined ? {} : { maxPoints: options.maxPoints }),
  });
  return { device_id: deviceId, mobile_data_volume: device.mobileDataVolume, history };
}
