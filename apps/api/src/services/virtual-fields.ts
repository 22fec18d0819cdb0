/**
 * Virtual data fields of a device (spec sections 3, 8: codes 84 to 91): list, create, update, delete, and
 * the formula preview of POST /core/devices/virtual_data_fields. Every definition is checked with the rules
 * engine's validateVirtualField against the device's known data fields and its other virtual fields: 88 name,
 * 89 formula (details.problem), 90 function, 91 name taken. Writes are ROLE_ADMIN/ROLE_MAINUSER (90004); an id
 * outside the acting company or device is 10 (device) or 84 (field). A renamed field's rules and sensor
 * checks follow the new `virtual.<uuid>.<name>` in the same transaction.
 */
import { randomUUID } from 'node:crypto';
import type { Db, Queryable } from '@iot/db';
import {
  type DeviceRecord,
  deleteVirtualField,
  findDevice,
  insertVirtualField,
  listVirtualFields,
  renameRuleDataField,
  renameSensorCheckDataField,
  updateVirtualField,
  type VirtualFieldRecord,
  type VirtualFieldValues,
  withTenant,
} from '@iot/db';
import { isApiError, virtualFieldName } from '@iot/domain';
import { computeVirtualFields, type VirtualField, validateVirtualField } from '@iot/rules-engine';
import { apiError } from '../lib/errors';
import { isManager } from '../plugins/guards';
import type { AuthContext } from '../types';

export interface VirtualFieldInput {
  name?: string;
  unit?: string | null;
  formula?: string | null;
  function?: string | null;
  mapping?: Record<string, string | number> | null;
  store?: boolean;
}

/** Field names a formula may read: reported (device_details), labelled (metadata) and latest values. */
export function knownDataFields(device: DeviceRecord): string[] {
  const names = new Set<string>();
  const add = (list: unknown) => {
    if (!Array.isArray(list)) return;
    for (const entry of list) {
      if (typeof entry === 'string') names.add(entry);
      else if (
        entry &&
        typeof entry === 'object' &&
        typeof (entry as { data_field?: unknown }).data_field === 'string'
      )
        names.add((entry as { data_field: string }).data_field);
    }
  };
  add(device.deviceDetails.data_fields);
  add(device.metadata.data_fields);
  for (const key of Object.keys(device.current)) names.add(key);
  return [...names];
}

function toEngine(record: { id: number | string; uuid: string } & VirtualFieldValues): VirtualField {
  return {
    id: String(record.id),
    uuid: record.uuid,
    name: record.name,
    unit: record.unit,
    formula: record.formula,
    function: record.function,
    mapping: record.mapping,
    store: record.store,
  };
}

function valuesOf(input: VirtualFieldInput, previous?: VirtualFieldValues): VirtualFieldValues {
  const text = (v: string | null | undefined, old: string | null | undefined) =>
    v === undefined ? (old ?? null) : v === null || v.trim() === '' ? null : v.trim();
  return {
    name: input.name === undefined ? (previous?.name ?? '') : input.name.trim(),
    unit: text(input.unit, previous?.unit),
    formula: text(input.formula, previous?.formula),
    function: text(input.function, previous?.function),
    mapping: input.mapping === undefined ? (previous?.mapping ?? {}) : (input.mapping ?? {}),
    store: input.store ?? previous?.store ?? true,
  };
}

async function deviceOf(tx: Queryable, auth: AuthContext, deviceId: number): Promise<DeviceRecord> {
  const device = await findDevice(tx, auth.companyId, deviceId);
  if (!device) throw apiError('DEVICE_NOT_FOUND');
  return device;
}

function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
}

export async function listFieldsOfDevice(db: Db, auth: AuthContext, deviceId: number) {
  return withTenant(db, auth.companyId, async (tx) => {
    await deviceOf(tx, auth, deviceId);
    return listVirtualFields(tx, auth.companyId, deviceId);
  });
}

export async function createVirtualField(
  db: Db,
  auth: AuthContext,
  deviceId: number,
  input: VirtualFieldInput,
): Promise<VirtualFieldRecord> {
  if (!isManager(auth)) throw apiError('NO_PERMISSION_TO_MANAGE_RULES');
  const values = valuesOf(input);
  const uuid = randomUUID();
  try {
    return await withTenant(db, auth.companyId, async (tx) => {
      const device = await deviceOf(tx, auth, deviceId);
      const others = await listVirtualFields(tx, auth.companyId, deviceId);
      const error = validateVirtualField(
        { id: String(deviceId), dataFields: knownDataFields(device) },
        toEngine({ id: 'new', uuid, ...values }),
        others.map(toEngine),
      );
      if (error) throw error;
      return insertVirtualField(tx, auth.companyId, deviceId, uuid, values);
    });
  } catch (err) {
    if (isApiError(err)) throw err;
    throw isUniqueViolation(err)
      ? apiError('VIRTUAL_FIELD_NAME_EXISTS')
      : apiError('VIRTUAL_FIELD_CREATE_FAILED');
  }
}

export async function changeVirtualField(
  db: Db,
  auth: AuthContext,
  deviceId: number,
  fieldId: number,
  input: VirtualFieldInput,
): Promise<VirtualFieldRecord> {
  if (!isManager(auth)) throw apiError('NO_PERMISSION_TO_MANAGE_RULES');
  try {
    return await withTenant(db, auth.companyId, async (tx) => {
      const device = await deviceOf(tx, auth, deviceId);
      const all = await listVirtualFields(tx, auth.companyId, deviceId);
      const previous = all.find((f) => f.id === fieldId);
      if (!previous) throw apiError('VIRTUAL_FIELD_NOT_FOUND');
      const values = valuesOf(input, previous);
      const error = validateVirtualField(
        { id: String(deviceId), dataFields: knownDataFields(device) },
        toEngine({ id: fieldId, uuid: previous.uuid, ...values }),
        all.map(toEngine),
      );
      if (error) throw error;
      const updated = await updateVirtualField(tx, auth.companyId, deviceId, fieldId, values);
      if (!updated) throw apiError('VIRTUAL_FIELD_NOT_FOUND');
      if (previous.name !== updated.name) {
        const from = virtualFieldName(previous.uuid, previous.name);
        const to = virtualFieldName(updated.uuid, updated.name);
        await renameRuleDataField(tx, auth.companyId, deviceId, from, to);
        await renameSensorCheckDataField(tx, auth.companyId, deviceId, from, to);
      }
      return updated;
    });
  } catch (err) {
    if (isApiError(err)) throw err;
    throw isUniqueViolation(err)
      ? apiError('VIRTUAL_FIELD_NAME_EXISTS')
      : apiError('VIRTUAL_FIELD_UPDATE_FAILED');
  }
}

export async function removeVirtualField(db: Db, auth: AuthContext, deviceId: number, fieldId: number) {
  if (!isManager(auth)) throw apiError('NO_PERMISSION_TO_MANAGE_RULES');
  try {
    await withTenant(db, auth.companyId, async (tx) => {
      await deviceOf(tx, auth, deviceId);
      if (!(await deleteVirtualField(tx, auth.companyId, deviceId, fieldId)))
        throw apiError('VIRTUAL_FIELD_NOT_FOUND');
    });
  } catch (err) {
    if (isApiError(err)) throw err;
    throw apiError('VIRTUAL_FIELD_DELETE_FAILED');
  }
}

export interface PreviewInput extends VirtualFieldInput {
  /** Sample values the formula reads, e.g. { temperature: 21 }. */
  data_fields: Record<string, unknown>;
  /** With a device: its virtual fields may be read too (and a field_id is the one being edited). */
  device_id?: number;
  field_id?: number;
}

export interface Preview {
  data_field: string;
  /** The result as stored (mapped label or number), null when there is none. */
  value: string | number | null;
  /** The number before mapping (what rules compare). */
  numeric: number | null;
  /** missing_input, non_finite: why there is no value. */
  error: string | null;
}

/**
 * POST /core/devices/virtual_data_fields: validates a definition against the given sample fields and
 * computes it once for them (rules engine's computeVirtualFields; aggregation functions start from an
 * empty state, so sum_up gives the formula's value). Codes 88-91 as for saving, 10 and 84 for a device
 * or field id outside the acting company.
 */
export async function previewVirtualField(db: Db, auth: AuthContext, input: PreviewInput): Promise<Preview> {
  const values = valuesOf({ name: 'preview', ...input });
  let others: VirtualFieldRecord[] = [];
  let uuid: string = randomUUID();
  const dataFields = Object.keys(input.data_fields);
  if (input.device_id !== undefined) {
    const deviceId = input.device_id;
    const loaded = await withTenant(db, auth.companyId, async (tx) => {
      const device = await deviceOf(tx, auth, deviceId);
      return { device, fields: await listVirtualFields(tx, auth.companyId, deviceId) };
    });
    dataFields.push(...knownDataFields(loaded.device));
    others = loaded.fields;
    if (input.field_id !== undefined) {
      const editing = others.find((f) => f.id === input.field_id);
      if (!editing) throw apiError('VIRTUAL_FIELD_NOT_FOUND');
      uuid = editing.uuid;
    }
  } else if (input.field_id !== undefined) throw apiError('VIRTUAL_FIELD_NOT_FOUND');
  const field = toEngine({ id: String(input.field_id ?? 'preview'), uuid, ...values });
  const device = { id: String(input.device_id ?? 0), dataFields };
  const error = validateVirtualField(device, field, others.map(toEngine));
  if (error) throw error;
  const key = virtualFieldName(uuid, values.name);
  const computed = computeVirtualFields({
    device,
    virtualFields: [...others.filter((o) => o.id !== input.field_id).map(toEngine), field],
    data: input.data_fields,
    at: Date.now(),
  });
  return {
    data_field: key,
    value: computed.data[key] ?? null,
    numeric: computed.values[key] ?? null,
    error: computed.errors.find((e) => e.field === key)?.reason ?? null,
  };
}

export function presentVirtualField(f: VirtualFieldRecord) {
  return {
    id: f.id,
    device_id: f.deviceId,
    uuid: f.uuid,
    name: f.name,
    data_field: virtualFieldName(f.uuid, f.name),
    unit: f.unit,
    formula: f.formula,
    function: f.function,
    mapping: f.mapping,
    store: f.store,
    created_at: f.createdAt.toISOString(),
    updated_at: f.updatedAt.toISOString(),
  };
}
