/**
 * Sensor checks of a device (rules engine: no_data, implausible_value, battery_low). Kinds and their fields:
 * - no_data: `max_silence_seconds` (whole seconds > 0) of silence raise an alarm;
 * - implausible_value: `data_field` and bounds `min_value`/`max_value`; a bound left out is the domain's
 *   fieldBounds for that field (spec section 5: temperature -20..100, default 0..100000), stored explicitly
 *   so the console shows what is checked;
 * - battery_low: `level` (0..100) below which the battery level raises an alarm (stored as min_value).
 * Bad input is 422 with field errors; writes are ROLE_ADMIN/ROLE_MAINUSER (90004); a device outside the acting
 * company is 10, a check outside the device 404; a failed write 70. A check whose condition changes loses its
 * engine state and its open alarm (the alarm described the old condition).
 */
import type { Db, Queryable } from '@iot/db';
import {
  clearOpenAlarms,
  deleteSensorCheck,
  findDevice,
  insertSensorCheck,
  listSensorChecks,
  listVirtualFields,
  type SensorCheckRecord,
  type SensorCheckValues,
  updateSensorCheck,
  withTenant,
} from '@iot/db';
import { fieldBounds, isApiError, parseVirtualFieldName, type ValidationError } from '@iot/domain';
import { apiError } from '../lib/errors';
import { isManager } from '../plugins/guards';
import type { AuthContext } from '../types';

export const SENSOR_CHECK_KINDS = ['no_data', 'implausible_value', 'battery_low'] as const;

export interface SensorCheckInput {
  kind: string;
  data_field?: string | null;
  max_silence_seconds?: number | null;
  min_value?: number | null;
  max_value?: number | null;
  level?: number | null;
  is_active?: boolean;
}

function toValues(input: SensorCheckInput): SensorCheckValues {
  const fields: Record<string, ValidationError> = {};
  const field =
    typeof input.data_field === 'string' && input.data_field.trim() !== '' ? input.data_field.trim() : null;
  let values: SensorCheckValues;
  switch (input.kind) {
    case 'no_data': {
      const seconds = input.max_silence_seconds;
      if (seconds === undefined || seconds === null) fields.max_silence_seconds = { key: 'error.required' };
      else if (!Number.isInteger(seconds) || seconds < 1)
        fields.max_silence_seconds = { key: 'error.min', params: { min: 1 } };
      values = {
        kind: 'no_data',
        dataField: field,
        maxSilenceSeconds: seconds ?? null,
        minValue: null,
        maxValue: null,
        isActive: true,
      };
      break;
    }
    case 'implausible_value': {
      if (!field) fields.data_field = { key: 'error.required' };
      const bounds = fieldBounds(field ?? '');
      const min = input.min_value ?? bounds.min;
      const max = input.max_value ?? bounds.max;
      if (min > max) fields.max_value = { key: 'error.min', params: { min } };
      values = {
        kind: 'implausible_value',
        dataField: field,
        maxSilenceSeconds: null,
        minValue: min,
        maxValue: max,
        isActive: true,
      };
      break;
    }
    case 'battery_low': {
      const level = input.level ?? input.min_value;
      if (level === undefined || level === null) fields.level = { key: 'error.required' };
      else if (level < 0 || level > 100) fields.level = { key: 'error.range', params: { min: 0, max: 100 } };
      values = {
        kind: 'battery_low',
        dataField: field,
        maxSilenceSeconds: null,
        minValue: level ?? null,
        maxValue: null,
        isActive: true,
      };
      break;
    }
    default:
      throw apiError('INPUT_ERROR', { fields: { kind: { key: 'error.unknown' } } });
  }
  if (Object.keys(fields).length > 0) throw apiError('INPUT_ERROR', { fields });
  return { ...values, isActive: input.is_active ?? true };
}

async function withDevice<T>(
  db: Db,
  auth: AuthContext,
  deviceId: number,
  fn: (tx: Parameters<Parameters<typeof withTenant>[2]>[0]) => Promise<T>,
): Promise<T> {
  return withTenant(db, auth.companyId, async (tx) => {
    if (!(await findDevice(tx, auth.companyId, deviceId))) throw apiError('DEVICE_NOT_FOUND');
    return fn(tx);
  });
}

/**
 * A `virtual.<uuid>.<name>` field must be one of this device's virtual fields, as the rule path demands:
 * otherwise a check could name another company's field and learn from its alarms whether it exists.
 */
async function requireOwnVirtualField(
  tx: Queryable,
  auth: AuthContext,
  deviceId: number,
  field: string | null,
) {
  if (field === null || !field.startsWith('virtual.')) return;
  const parsed = parseVirtualFieldName(field);
  const own = await listVirtualFields(tx, auth.companyId, deviceId);
  if (!parsed || !own.some((f) => f.uuid === parsed.uuid && f.name === parsed.name))
    throw apiError('INPUT_ERROR', { fields: { data_field: { key: 'error.unknown' } } });
}

function failed(err: unknown): never {
  if (isApiError(err)) throw err;
  throw apiError('SENSOR_UPDATE_FAILED');
}

export function listChecksOfDevice(
  db: Db,
  auth: AuthContext,
  deviceId: number,
): Promise<SensorCheckRecord[]> {
  return withDevice(db, auth, deviceId, (tx) => listSensorChecks(tx, auth.companyId, deviceId));
}

export async function createSensorCheck(
  db: Db,
  auth: AuthContext,
  deviceId: number,
  input: SensorCheckInput,
) {
  if (!isManager(auth)) throw apiError('NO_PERMISSION_TO_MANAGE_RULES');
  const values = toValues(input);
  try {
    return await withDevice(db, auth, deviceId, async (tx) => {
      await requireOwnVirtualField(tx, auth, deviceId, values.dataField);
      return insertSensorCheck(tx, auth.companyId, deviceId, values);
    });
  } catch (err) {
    return failed(err);
  }
}

export async function changeSensorCheck(
  db: Db,
  auth: AuthContext,
  deviceId: number,
  checkId: number,
  input: SensorCheckInput,
): Promise<SensorCheckRecord> {
  if (!isManager(auth)) throw apiError('NO_PERMISSION_TO_MANAGE_RULES');
  const values = toValues(input);
  try {
    return await withDevice(db, auth, deviceId, async (tx) => {
      await requireOwnVirtualField(tx, auth, deviceId, values.dataField);
      const updated = await updateSensorCheck(tx, auth.companyId, deviceId, checkId, values);
      if (!updated) throw apiError('DATA_NOT_FOUND');
      if (updated.conditionChanged)
        await clearOpenAlarms(tx, auth.companyId, { sensorCheckId: checkId }, 'sensor_check_changed');
      return updated.record;
    });
  } catch (err) {
    return failed(err);
  }
}

export async function removeSensorCheck(db: Db, auth: AuthContext, deviceId: number, checkId: number) {
  if (!isManager(auth)) throw apiError('NO_PERMISSION_TO_MANAGE_RULES');
  try {
    await withDevice(db, auth, deviceId, async (tx) => {
      if (!(await deleteSensorCheck(tx, auth.companyId, deviceId, checkId))) throw apiError('DATA_NOT_FOUND');
    });
  } catch (err) {
    failed(err);
  }
}

/** POST /core/devices/sensor_checks: what the console's form offers for the given data fields. */
export function sensorCheckForm(dataFields: readonly string[]) {
  return {
    kinds: [...SENSOR_CHECK_KINDS],
    data_fields: dataFields.map((name) => ({ data_field: name, ...fieldBounds(name) })),
  };
}

export function presentSensorCheck(c: SensorCheckRecord) {
  return {
    id: c.id,
    device_id: c.deviceId,
    kind: c.kind,
    data_field: c.dataField,
    max_silence_seconds: c.maxSilenceSeconds,
    min_value: c.kind === 'battery_low' ? null : c.minValue,
    max_value: c.maxValue,
    level: c.kind === 'battery_low' ? c.minValue : null,
    is_active: c.isActive,
    last_checked_at: c.lastCheckedAt ? c.lastCheckedAt.toISOString() : null,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}
