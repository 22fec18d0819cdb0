/**
 * Reassigning a device to another company (spec section 4: "Devices can be reassigned after
 * confirmation"): only the super admin (company 1, with the admin or main role; else 90002), only with
 * `confirm: true` (else 422 on `confirm`), only to an existing company that is neither blocked nor deleted
 * (else 4). The move runs inside the caller's transaction: the old company's configuration rows are
 * removed first (reassignDevice in @iot/db says which and why), then the device moves, and the move is
 * written to the audit log of both companies.
 */
import type { Db, Queryable } from '@iot/db';
import { findCompany, type ReassignmentSummary, reassignDevice, recordAuditEvent } from '@iot/db';
import { apiError } from '../lib/errors';
import { isManager, isSuperAdmin } from '../plugins/guards';
import type { AuthContext } from '../types';
import { refuseAtLimit } from './check-limits';

/** Every check that needs no write; run before anything is changed. */
export async function checkReassignment(
  db: Db,
  auth: AuthContext,
  toCompanyId: number,
  confirm: boolean | undefined,
): Promise<void> {
  if (!isSuperAdmin(auth) || !isManager(auth)) throw apiError('NO_PERMISSION_TO_REASSIGN_DEVICES');
  if (confirm !== true) {
    throw apiError('INPUT_ERROR', { fields: { confirm: { key: 'error.required' } } });
  }
  const target = await findCompany(db, toCompanyId);
  if (!target || target.blocked || target.deletedAt) throw apiError('COMPANY_NOT_FOUND');
}

/** Moves the device of the acting company inside `tx` (owner role: it writes rows of two companies). */
export async function moveDevice(
  tx: Queryable,
  auth: AuthContext,
  deviceId: number,
  toCompanyId: number,
): Promise<ReassignmentSummary> {
  // The receiving client's device limit (issue #27) counts the devices it has before the move.
  if (toCompanyId !== auth.companyId) await refuseAtLimit(tx, toCompanyId, 'max_devices');
  const summary = await reassignDevice(tx, auth.companyId, deviceId, toCompanyId);
  if (!summary) throw apiError('DEVICE_NOT_FOUND');
  const details = {
    device_id: deviceId,
    from_company_id: auth.companyId,
    to_company_id: toCompanyId,
    removed: summary,
  };
  for (const companyId of [auth.companyId, toCompanyId]) {
    await recordAuditEvent(tx, { companyId, userId: auth.user.id, action: 'device.reassign', details });
  }
  return summary;
}
