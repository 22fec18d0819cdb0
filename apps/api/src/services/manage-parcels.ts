/**
 * Parcels (spec sections 3, 4, 7; issue 24): the administrative plots a field's size is summed from.
 * ROLE_ADMIN and ROLE_MAINUSER write (20102). A parcel on a field cannot be deleted (20144). For a company
 * in Germany the registration number must be a FLIK (20101); elsewhere it is free text.
 */
import type { Db, ParcelRecord, ParcelValues, Queryable } from '@iot/db';
import {
  deleteParcel,
  findParcel,
  insertParcel,
  listParcels,
  recordAuditEvent,
  refreshFieldSizes,
  updateParcel,
  withTenant,
} from '@iot/db';
import { isFlik, rule } from '@iot/domain';
import { apiError } from '../lib/errors';
import { validateBody } from '../lib/validation';
import type { AuthContext } from '../types';
import { checkBoundary, farmingWrite, requireFarmingManager } from './farming-common';

export interface ParcelInput {
  parcel_id?: string | null;
  registration_number?: string | null;
  size_m2?: number;
  boundary?: unknown;
  valid_from?: string | null;
  valid_to?: string | null;
}

const PARCEL_RULES = { parcel_id: ['required', rule.maxLength(100)] } as const;

function checkInput(auth: AuthContext, input: ParcelInput, partial: boolean): ParcelValues {
  const out: ParcelValues = {};
  if (input.parcel_id !== undefined || !partial) {
    out.parcelId = (input.parcel_id ?? '').trim();
    validateBody({ parcel_id: out.parcelId }, PARCEL_RULES);
  }
  if (input.registration_number !== undefined || !partial) {
    const number = (input.registration_number ?? '').trim();
    const german = auth.company.countryCode === 'DE';
    out.registrationNumber = german ? number.toUpperCase() : number;
    if (german && !isFlik(out.registrationNumber)) throw apiError('PARCEL_REGISTRATION_INVALID');
  }
  if (input.size_m2 !== undefined) out.sizeM2 = input.size_m2;
  if (input.boundary !== undefined) out.boundary = checkBoundary(input.boundary)?.geometry ?? null;
  if (input.valid_from !== undefined) out.validFrom = input.valid_from;
  if (input.valid_to !== undefined) out.validTo = input.valid_to;
  if (out.validFrom && out.validTo && out.validFrom > out.validTo) {
    throw apiError('INPUT_ERROR', { fields: { valid_to: { key: 'error.date-order' } } });
  }
  return out;
}

async function audit(tx: Queryable, auth: AuthContext, action: string, parcelId: number) {
  await recordAuditEvent(tx, {
    companyId: auth.companyId,
    userId: auth.user.id,
    action,
    details: { parcel_id: parcelId },
  });
}

async function reread(tx: Queryable, auth: AuthContext, id: number): Promise<ParcelRecord> {
  const parcel = await findParcel(tx, auth.companyId, id);
  if (!parcel) throw apiError('PARCEL_NOT_FOUND');
  return parcel;
}

export function listCompanyParcels(db: Db, auth: AuthContext): Promise<ParcelRecord[]> {
  return withTenant(db, auth.companyId, (tx) => listParcels(tx, auth.companyId));
}

export async function createParcel(db: Db, auth: AuthContext, input: ParcelInput): Promise<ParcelRecord> {
  requireFarmingManager(auth, 'PARCEL_NO_PERMISSION');
  const values = checkInput(auth, input, false);
  return farmingWrite(db, auth, 'PARCEL_CREATE_FAILED', async (tx) => {
    const id = await insertParcel(tx, auth.companyId, {
      ...values,
      parcelId: values.parcelId ?? '',
      sizeM2: values.sizeM2 ?? 0,
    });
    await audit(tx, auth, 'farming.parcel.create', id);
    return reread(tx, auth, id);
  });
}

export async function updateCompanyParcel(
  db: Db,
  auth: AuthContext,
  id: number,
  input: ParcelInput,
): Promise<ParcelRecord> {
  requireFarmingManager(auth, 'PARCEL_NO_PERMISSION');
  const values = checkInput(auth, input, true);
  return farmingWrite(db, auth, 'PARCEL_UPDATE_FAILED', async (tx) => {
    if (!(await updateParcel(tx, auth.companyId, id, values))) throw apiError('PARCEL_NOT_FOUND');
    // The parcel's field is as large as its parcels (spec section 4).
    if (values.sizeM2 !== undefined) await refreshFieldSizes(tx, auth.companyId);
    await audit(tx, auth, 'farming.parcel.update', id);
    return reread(tx, auth, id);
  });
}

/** 20144 while the parcel is on a field: the field's size would silently shrink. */
export async function deleteCompanyParcel(db: Db, auth: AuthContext, id: number): Promise<void> {
  requireFarmingManager(auth, 'PARCEL_NO_PERMISSION');
  await farmingWrite(db, auth, 'PARCEL_DELETE_FAILED', async (tx) => {
    const parcel = await reread(tx, auth, id);
    if (parcel.fieldId !== null) throw apiError('PARCEL_HAS_ASSIGNED_FIELDS', { field_id: parcel.fieldId });
    await deleteParcel(tx, auth.companyId, id);
    await audit(tx, auth, 'farming.parcel.delete', id);
  });
}
