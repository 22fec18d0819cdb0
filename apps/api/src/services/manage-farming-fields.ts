/**
 * Farming fields (spec sections 3, 4, 7; issue 24). Everyone in a farming company reads; ROLE_ADMIN and
 * ROLE_MAINUSER add, edit, delete and assign (20009). Each use case is one transaction under the company's
 * farming lock:
 * - assigning parcels makes exactly those the field's, taking them from any other field (whose count and
 *   size follow, since both are summed from the parcels); a parcel id that is not the company's refuses
 *   the whole write (20146);
 * - assigning devices likewise, a device stands on at most one field (20011 for another company's device);
 * - deleting a field unassigns its parcels and devices.
 */
import type { Db, FarmingFieldRecord, FieldDeviceRecord, Queryable } from '@iot/db';
import {
  deleteFarmingField,
  ensureCatalogueEntry,
  findCatalogueEntryByCode,
  findFarmingField,
  insertFarmingField,
  listFarmingFields,
  listFieldDevices,
  ownedDeviceIds,
  ownedParcelIds,
  recordAuditEvent,
  setFieldDevices,
  setFieldParcels,
  updateFarmingField,
  withTenant,
} from '@iot/db';
import { BUILTIN_PLANTS, BUILTIN_SOILS, FORM_RULES } from '@iot/domain';
import { apiError } from '../lib/errors';
import { validateBody } from '../lib/validation';
import type { AuthContext } from '../types';
import { checkBoundary, farmingWrite, requireFarmingManager } from './farming-common';

export interface FieldInput {
  name?: string | null;
  soil?: string | null;
  plant?: string | null;
  boundary?: unknown;
  device_ids?: number[];
  parcels?: number[];
}

function checkName(name: string | null | undefined, partial: boolean): string | undefined {
  if (name === undefined && partial) return undefined;
  const trimmed = (name ?? '').trim();
  validateBody({ name: trimmed }, FORM_RULES.farmingField);
  return trimmed;
}

/**
 * The company's row id for a soil or plant code: a built-in entry is copied into the company's table the
 * first time; any other code must be one of the company's own (20022 / 20042).
 */
async function catalogueId(
  tx: Queryable,
  auth: AuthContext,
  kind: 'soils' | 'plants',
  code: string | null,
): Promise<number | null> {
  if (code === null || code.trim() === '') return null;
  const builtin = (kind === 'soils' ? BUILTIN_SOILS : BUILTIN_PLANTS).find((entry) => entry.code === code);
  if (builtin) return (await ensureCatalogueEntry(tx, kind, auth.companyId, builtin)).id;
  const own = await findCatalogueEntryByCode(tx, kind, auth.companyId, code);
  if (!own) throw apiError(kind === 'soils' ? 'SOIL_INVALID' : 'PLANT_INVALID');
  return own.id;
}

async function assignParcels(tx: Queryable, auth: AuthContext, fieldId: number, ids: number[]) {
  const wanted = [...new Set(ids)];
  const owned = await ownedParcelIds(tx, auth.companyId, wanted);
  if (owned.length !== wanted.length) {
    // Unknown and foreign ids look the same: the answer does not reveal whether a foreign parcel exists.
    const ownedSet = new Set(owned);
    throw apiError('PARCEL_OTHER_COMPANY', { parcels: wanted.filter((id) => !ownedSet.has(id)) });
  }
  await setFieldParcels(tx, auth.companyId, fieldId, wanted);
}

async function assignDevices(tx: Queryable, auth: AuthContext, fieldId: number, ids: number[]) {
  const wanted = [...new Set(ids)];
  const owned = await ownedDeviceIds(tx, auth.companyId, wanted);
  if (owned.length !== wanted.length) {
    const ownedSet = new Set(owned);
    throw apiError('FIELD_DEVICE_OTHER_COMPANY', { device_ids: wanted.filter((id) => !ownedSet.has(id)) });
  }
  await setFieldDevices(tx, auth.companyId, fieldId, wanted);
}

async function audit(tx: Queryable, auth: AuthContext, action: string, fieldId: number) {
  await recordAuditEvent(tx, {
    companyId: auth.companyId,
    userId: auth.user.id,
    action,
    details: { field_id: fieldId },
  });
}

async function reread(tx: Queryable, auth: AuthContext, id: number): Promise<FarmingFieldRecord> {
  const field = await findFarmingField(tx, auth.companyId, id);
  if (!field) throw apiError('FIELD_NOT_FOUND');
  return field;
}

export function listCompanyFields(db: Db, auth: AuthContext): Promise<FarmingFieldRecord[]> {
  return withTenant(db, auth.companyId, (tx) => listFarmingFields(tx, auth.companyId));
}

export async function createField(db: Db, auth: AuthContext, input: FieldInput): Promise<FarmingFieldRecord> {
  requireFarmingManager(auth, 'FIELD_NO_PERMISSION');
  const name = checkName(input.name, false) ?? '';
  const boundary = input.boundary === undefined ? undefined : checkBoundary(input.boundary);
  return farmingWrite(db, auth, 'FIELD_CREATE_FAILED', async (tx) => {
    const id = await insertFarmingField(tx, auth.companyId, {
      name,
      soilId: await catalogueId(tx, auth, 'soils', input.soil ?? null),
      plantId: await catalogueId(tx, auth, 'plants', input.plant ?? null),
      ...(boundary === undefined ? {} : { boundary }),
    });
    if (input.parcels !== undefined) await assignParcels(tx, auth, id, input.parcels);
    if (input.device_ids !== undefined) await assignDevices(tx, auth, id, input.device_ids);
    await audit(tx, auth, 'farming.field.create', id);
    return reread(tx, auth, id);
  });
}

export async function updateField(
  db: Db,
  auth: AuthContext,
  id: number,
  input: FieldInput,
): Promise<FarmingFieldRecord> {
  requireFarmingManager(auth, 'FIELD_NO_PERMISSION');
  const name = checkName(input.name, true);
  const boundary = input.boundary === undefined ? undefined : checkBoundary(input.boundary);
  return farmingWrite(db, auth, 'FIELD_UPDATE_FAILED', async (tx) => {
    const changed = await updateFarmingField(tx, auth.companyId, id, {
      ...(name === undefined ? {} : { name }),
      ...(input.soil === undefined ? {} : { soilId: await catalogueId(tx, auth, 'soils', input.soil) }),
      ...(input.plant === undefined ? {} : { plantId: await catalogueId(tx, auth, 'plants', input.plant) }),
      ...(boundary === undefined ? {} : { boundary }),
    });
    if (!changed) throw apiError('FIELD_NOT_FOUND');
    await audit(tx, auth, 'farming.field.update', id);
    return reread(tx, auth, id);
  });
}

export async function deleteField(db: Db, auth: AuthContext, id: number): Promise<void> {
  requireFarmingManager(auth, 'FIELD_NO_PERMISSION');
  await farmingWrite(db, auth, 'FIELD_DELETE_FAILED', async (tx) => {
    if (!(await deleteFarmingField(tx, auth.companyId, id))) throw apiError('FIELD_NOT_FOUND');
    await audit(tx, auth, 'farming.field.delete', id);
  });
}

export async function assignFieldParcels(
  db: Db,
  auth: AuthContext,
  fieldId: number,
  parcelIds: number[],
): Promise<FarmingFieldRecord> {
  requireFarmingManager(auth, 'FIELD_NO_PERMISSION');
  return farmingWrite(db, auth, 'FIELD_ASSIGN_PARCELS_FAILED', async (tx) => {
    await reread(tx, auth, fieldId);
    await assignParcels(tx, auth, fieldId, parcelIds);
    await audit(tx, auth, 'farming.field.assign_parcels', fieldId);
    return reread(tx, auth, fieldId);
  });
}

export async function assignFieldDevices(
  db: Db,
  auth: AuthContext,
  fieldId: number,
  deviceIds: number[],
): Promise<FarmingFieldRecord> {
  requireFarmingManager(auth, 'FIELD_NO_PERMISSION');
  return farmingWrite(db, auth, 'FIELD_ASSIGN_DEVICES_FAILED', async (tx) => {
    await reread(tx, auth, fieldId);
    await assignDevices(tx, auth, fieldId, deviceIds);
    await audit(tx, auth, 'farming.field.assign_devices', fieldId);
    return reread(tx, auth, fieldId);
  });
}

/** The company's devices with their field; with `fieldId` only that field's (20001 when it is not the company's). */
export async function listDevicesOfFields(
  db: Db,
  auth: AuthContext,
  fieldId: number | null,
): Promise<FieldDeviceRecord[]> {
  return withTenant(db, auth.companyId, async (tx) => {
    if (fieldId !== null) await reread(tx, auth, fieldId);
    return listFieldDevices(tx, auth.companyId, fieldId);
  });
}
