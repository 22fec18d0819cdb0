/**
 * PUT /core/devices/{id}: editing a device (ROLE_ADMIN or ROLE_MAINUSER, spec section 6; else 90001). Fields
 * are checked before anything is written: form rules (422), a manual state from ok, maintenance, lost,
 * broken, disposed (26 otherwise), a group of the acting company (46), a known driver (38), a codec of
 * the acting company (90011). A company_id
 * other than the acting one is a reassignment (reassign-device.ts), done in the same transaction as the
 * edit. A failed write is 42 (33 when reassigning).
 */
import { listDrivers } from '@iot/codecs';
import type { Db, Queryable } from '@iot/db';
import { codecExists, type DeviceChanges, groupExists, updateDevice, withTenant } from '@iot/db';
import { isApiError, isDeviceState, rule } from '@iot/domain';
import { apiError } from '../lib/errors';
import { validateBody } from '../lib/validation';
import { isManager } from '../plugins/guards';
import type { AuthContext } from '../types';
import { checkReassignment, moveDevice } from './reassign-device';

export interface DeviceUpdateInput {
  name?: string;
  description?: string | null;
  comment?: string | null;
  location?: string | null;
  latitude?: number | null;
  longitude?: number | null;
  group_id?: number | null;
  target_server?: 'develop' | 'staging' | 'production' | null;
  external_accessible?: boolean;
  is_active?: boolean;
  driver_id?: string | null;
  codec_id?: number | null;
  state?: string;
  company_id?: number;
  confirm?: boolean;
}

const TEXT = [rule.maxLength(255)];
const DEVICE_RULES = {
  name: ['required', rule.maxLength(255)],
  description: [rule.maxLength(2000)],
  comment: [rule.maxLength(2000)],
  location: TEXT,
  latitude: [rule.range(-90, 90)],
  longitude: [rule.range(-180, 180)],
} as const;

function toChanges(input: DeviceUpdateInput): DeviceChanges {
  const changes: DeviceChanges = {};
  if (input.name !== undefined) changes.name = input.name.trim();
  if (input.description !== undefined) changes.description = input.description;
  if (input.comment !== undefined) changes.comment = input.comment;
  if (input.location !== undefined) changes.location = input.location;
  if (input.latitude !== undefined) changes.latitude = input.latitude;
  if (input.longitude !== undefined) changes.longitude = input.longitude;
  if (input.group_id !== undefined) changes.groupId = input.group_id;
  if (input.target_server !== undefined) changes.targetServer = input.target_server;
  if (input.external_accessible !== undefined) changes.externalAccessible = input.external_accessible;
  if (input.is_active !== undefined) changes.isActive = input.is_active;
  if (input.driver_id !== undefined) changes.driverId = input.driver_id;
  if (input.codec_id !== undefined) changes.codecId = input.codec_id;
  if (input.state !== undefined) changes.state = input.state;
  return changes;
}

export async function updateDeviceAsActor(
  db: Db,
  auth: AuthContext,
  id: number,
  input: DeviceUpdateInput,
): Promise<void> {
  if (!isManager(auth)) throw apiError('NO_PERMISSION_TO_EDIT_DEVICES');
  const values: Record<string, unknown> = {};
  for (const key of Object.keys(DEVICE_RULES) as (keyof typeof DEVICE_RULES)[]) {
    const value = input[key];
    if (value !== undefined && value !== null) values[key] = key === 'name' ? String(value).trim() : value;
  }
  // A name sent as null or blank is a cleared required field, not "unchanged".
  if (input.name !== undefined) values.name = (input.name ?? '').trim();
  validateBody(values, DEVICE_RULES, { partial: true });
  if (input.state !== undefined && !isDeviceState(input.state)) {
    throw apiError('DEVICE_STATUS_NOT_FOUND', { state: input.state });
  }
  if (input.driver_id != null && !listDrivers().some((d) => d.id === input.driver_id)) {
    throw apiError('DRIVER_INVALID', { fields: { driver_id: { key: 'error.unknown' } } });
  }
  const toCompanyId =
    input.company_id !== undefined && input.company_id !== auth.companyId ? input.company_id : null;
  if (toCompanyId !== null) await checkReassignment(db, auth, toCompanyId, input.confirm);

  const changes = toChanges(input);
  const apply = async (tx: Queryable) => {
    if (input.group_id != null && !(await groupExists(tx, auth.companyId, input.group_id))) {
      throw apiError('GROUP_NOT_FOUND');
    }
    // Another company's codec looks exactly like one that does not exist.
    if (input.codec_id != null && !(await codecExists(tx, auth.companyId, input.codec_id))) {
      throw apiError('CODEC_NOT_FOUND', { fields: { codec_id: { key: 'error.unknown' } } });
    }
    const found = await updateDevice(tx, auth.companyId, id, changes);
    if (!found) throw apiError('DEVICE_NOT_FOUND');
    if (toCompanyId !== null) await moveDevice(tx, auth, id, toCompanyId);
  };
  try {
    // A reassignment writes rows of two companies, so it runs as the owner role (every statement still
    // names the acting company); the edit and the move commit together or not at all.
    if (toCompanyId === null) await withTenant(db, auth.companyId, apply);
    else await db.transaction(apply);
  } catch (err) {
    if (isApiError(err)) throw err;
    throw apiError(toCompanyId === null ? 'DEVICE_UPDATE_FAILED' : 'DEVICE_ASSIGN_COMPANY_FAILED');
  }
}
